import { RunningSimulator, startSimulator } from '../server';
import { getUrl, parseJson } from '../testing/simulator-client.util';

const KEY = { 'x-vendor-api-key': 'sim-kappa-key' };

interface ModelsPage {
  models: Array<{ name: string; supportedGenerationMethods: string[] }>;
  nextPageToken?: string;
}

describe('kappa models', () => {
  let simulator: RunningSimulator;

  beforeAll(async () => {
    simulator = await startSimulator();
  });
  afterAll(() => simulator.close());

  it('pages through the list with pageSize and pageToken, without a token on the last page', async () => {
    const names: string[] = [];
    let pageToken: string | undefined;
    let pages = 0;
    do {
      const query = `pageSize=3${pageToken ? `&pageToken=${encodeURIComponent(pageToken)}` : ''}`;
      const result = await getUrl(`${simulator.url}/v1beta/models?${query}`, KEY);
      expect(result.status).toBe(200);
      const page = parseJson(result.text) as unknown as ModelsPage;
      names.push(...page.models.map((model) => model.name));
      pageToken = page.nextPageToken;
      pages += 1;
      if (!pageToken) expect('nextPageToken' in page).toBe(false);
    } while (pageToken);
    expect(pages).toBe(2);
    expect(names).toEqual([
      'models/kappa-2.0-flash',
      'models/kappa-3-pro-image-preview',
      'models/kappa-2.5-flash-image-preview',
      'models/kappa-3.1-flash-image-preview',
    ]);
  });

  it('rejects a forged page token', async () => {
    const result = await getUrl(`${simulator.url}/v1beta/models?pageToken=garbage`, KEY);
    expect(result.status).toBe(400);
  });

  it('serves one model with the models/ prefix, on /v1 too', async () => {
    const result = await getUrl(`${simulator.url}/v1/models/kappa-2.0-flash`, KEY);
    expect(result.status).toBe(200);
    expect(parseJson(result.text)).toMatchObject({
      name: 'models/kappa-2.0-flash',
      inputTokenLimit: expect.any(Number),
      supportedGenerationMethods: expect.arrayContaining(['generateContent']),
    });
  });

  it('answers an unknown model with 404 NOT_FOUND and requires a key', async () => {
    expect((await getUrl(`${simulator.url}/v1beta/models/other-1`, KEY)).status).toBe(404);
    expect((await getUrl(`${simulator.url}/v1beta/models`)).status).toBe(403);
  });
});
