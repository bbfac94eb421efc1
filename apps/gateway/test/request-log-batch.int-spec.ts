import { GatewayHarness, type TextDemo } from './gateway-harness';

describe('request logs written in a batch', () => {
  let harness: GatewayHarness;
  let demo: TextDemo;

  beforeAll(async () => {
    harness = await GatewayHarness.start();
    demo = await harness.seedTextDemo();
  });
  afterAll(() => harness.close());

  it('stores the row of a model name Postgres cannot hold, sanitised, and its 40 batch-mates', async () => {
    const ask = (model: string) =>
      harness.request('POST', '/v1/chat/completions', {
        body: { model, messages: [{ role: 'user', content: 'hi' }] },
        headers: { authorization: `Bearer ${demo.key}` },
      });

    // Refused together, so their log rows are written in one batch.
    const answers = await Promise.all([
      ...Array.from({ length: 40 }, (_, index) => ask(`missing-model-${index}`)),
      ask('missing\u0000model'),
    ]);
    await harness.settled();

    expect(answers.every((answer) => answer.status >= 400 && answer.status < 500)).toBe(true);
    const rows = await harness.query<{ model: string }>('select model from request_logs where key_id = $1', [
      demo.keyId,
    ]);
    expect(rows).toHaveLength(41);
    expect(rows.map((row) => row.model)).toContain('missing\ufffdmodel');
  });
});
