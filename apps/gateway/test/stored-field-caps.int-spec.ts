import { STORED_FIELD_LIMITS } from '@gateway/contracts';
import { seedAlphaDemo } from './alpha-demo';
import { GatewayHarness } from './gateway-harness';
import { seedMusicDemo } from './lambda-demo';
import { seedThetaChannel } from './theta-demo';
import { newVideoAccount, seedVideoDemo } from './video-demo';

const { promptLength, passThroughBytes, unknownFields, unknownFieldsBytes, labelLength } =
  STORED_FIELD_LIMITS;

/** A string whose JSON text is exactly `bytes` bytes long (its quotes included). */
const jsonStringOf = (bytes: number) => 'x'.repeat(bytes - 2);
/** An object whose JSON text is exactly `bytes` bytes long: `{"note":"xxx…"}`. */
const jsonObjectOf = (bytes: number) => ({ note: 'x'.repeat(bytes - '{"note":""}'.length) });
/** `count` fields the routes do not name, `extra_0` … */
const unknownOf = (count: number, value: unknown = 1) =>
  Object.fromEntries(Array.from({ length: count }, (_, index) => [`extra_${index}`, value]));
/** Fields the routes do not name whose names and values come to `bytes` bytes of JSON together. */
const unknownBytesOf = (bytes: number) => ({ extra_big: jsonStringOf(bytes - '"extra_big"'.length) });

type Route = 'videos' | 'unified' | 'alpha' | 'theta' | 'lambda' | 'bt' | 'images';

interface CapCase {
  route: Route;
  what: string;
  /** Over the cap by one: refused naming `field` and the cap. */
  over: Record<string, unknown>;
  /** At the cap: past the check. */
  atCap: Record<string, unknown>;
  field: string;
  cap: number;
}

const VIDEO = { model: 'delta-2', prompt: 'a kite' };
const ALPHA = { model: 'alphaq2-pro', prompt: 'a kite' };
const THETA = { model: 'eta-theta-2-0-260128', content: [{ type: 'text', text: 'a kite' }] };
const MUSIC = { prompt: 'a song about kites' };
const BETA = { req_key: 'beta_t2i_v40', prompt: 'a kite', width: 1024, height: 1024 };

const CASES: CapCase[] = [
  ...(['videos', 'unified'] as const).flatMap((route): CapCase[] => [
    {
      route,
      what: 'a prompt',
      over: { ...VIDEO, prompt: 'p'.repeat(promptLength + 1) },
      atCap: { ...VIDEO, prompt: 'p'.repeat(promptLength) },
      field: 'prompt',
      cap: promptLength,
    },
    {
      route,
      what: 'metadata',
      over: { ...VIDEO, metadata: jsonObjectOf(passThroughBytes + 1) },
      atCap: { ...VIDEO, metadata: jsonObjectOf(passThroughBytes) },
      field: 'metadata',
      cap: passThroughBytes,
    },
    {
      route,
      what: 'too many unknown fields',
      over: { ...VIDEO, ...unknownOf(unknownFields + 1) },
      atCap: { ...VIDEO, ...unknownOf(unknownFields) },
      field: `extra_${unknownFields}`,
      cap: unknownFields,
    },
    {
      route,
      what: 'unknown fields too large together',
      over: { ...VIDEO, ...unknownBytesOf(unknownFieldsBytes + 1) },
      atCap: { ...VIDEO, ...unknownBytesOf(unknownFieldsBytes) },
      field: 'extra_big',
      cap: unknownFieldsBytes,
    },
  ]),
  {
    route: 'unified',
    what: 'a storyboard',
    over: { ...VIDEO, storyboard: jsonObjectOf(passThroughBytes + 1) },
    atCap: { ...VIDEO, storyboard: jsonObjectOf(passThroughBytes) },
    field: 'storyboard',
    cap: passThroughBytes,
  },
  {
    route: 'alpha',
    what: 'payload',
    over: { ...ALPHA, payload: jsonStringOf(passThroughBytes + 1) },
    atCap: { ...ALPHA, payload: jsonStringOf(passThroughBytes) },
    field: 'payload',
    cap: passThroughBytes,
  },
  {
    route: 'alpha',
    what: 'meta_data',
    over: { ...ALPHA, meta_data: JSON.stringify(jsonObjectOf(passThroughBytes)) },
    atCap: { ...ALPHA, meta_data: JSON.stringify(jsonObjectOf(passThroughBytes - 100)) },
    field: 'meta_data',
    cap: passThroughBytes,
  },
  {
    route: 'alpha',
    what: 'a voice id',
    over: { ...ALPHA, voice_id: 'v'.repeat(257) },
    atCap: { ...ALPHA, voice_id: 'v'.repeat(256) },
    field: 'voice_id',
    cap: 256,
  },
  {
    route: 'theta',
    what: 'a text item',
    over: { ...THETA, content: [{ type: 'text', text: 't'.repeat(promptLength + 1) }] },
    atCap: { ...THETA, content: [{ type: 'text', text: 't'.repeat(promptLength) }] },
    field: 'content[0].text',
    cap: promptLength,
  },
  {
    route: 'theta',
    what: 'metadata',
    over: { ...THETA, metadata: jsonObjectOf(passThroughBytes + 1) },
    atCap: { ...THETA, metadata: jsonObjectOf(passThroughBytes) },
    field: 'metadata',
    cap: passThroughBytes,
  },
  {
    route: 'theta',
    what: 'too many unknown fields',
    over: { ...THETA, ...unknownOf(unknownFields + 1) },
    atCap: { ...THETA, ...unknownOf(unknownFields) },
    field: `extra_${unknownFields}`,
    cap: unknownFields,
  },
  {
    route: 'lambda',
    what: 'a prompt',
    over: { ...MUSIC, prompt: 'p'.repeat(promptLength + 1) },
    atCap: { ...MUSIC, prompt: 'p'.repeat(promptLength) },
    field: 'prompt',
    cap: promptLength,
  },
  {
    route: 'lambda',
    what: 'a description prompt',
    over: { description_prompt: 'd'.repeat(promptLength + 1) },
    atCap: { description_prompt: 'd'.repeat(promptLength) },
    field: 'description_prompt',
    cap: promptLength,
  },
  {
    route: 'lambda',
    what: 'a title',
    over: { ...MUSIC, title: 't'.repeat(labelLength + 1) },
    atCap: { ...MUSIC, title: 't'.repeat(labelLength) },
    field: 'title',
    cap: labelLength,
  },
  {
    route: 'lambda',
    what: 'too many unknown fields',
    over: { ...MUSIC, ...unknownOf(unknownFields + 1) },
    atCap: { ...MUSIC, ...unknownOf(unknownFields) },
    field: `extra_${unknownFields}`,
    cap: unknownFields,
  },
  {
    route: 'lambda',
    what: 'unknown fields too large together',
    over: { ...MUSIC, ...unknownBytesOf(unknownFieldsBytes + 1) },
    atCap: { ...MUSIC, ...unknownBytesOf(unknownFieldsBytes) },
    field: 'extra_big',
    cap: unknownFieldsBytes,
  },
  {
    route: 'bt',
    what: 'req_json',
    over: { ...BETA, req_json: JSON.stringify(jsonObjectOf(passThroughBytes)) },
    atCap: { ...BETA, req_json: JSON.stringify(jsonObjectOf(passThroughBytes - 100)) },
    field: 'req_json',
    cap: passThroughBytes,
  },
  {
    route: 'bt',
    what: 'too many unknown fields',
    over: { ...BETA, ...unknownOf(unknownFields + 1) },
    atCap: { ...BETA, ...unknownOf(unknownFields) },
    field: `extra_${unknownFields}`,
    cap: unknownFields,
  },
  {
    route: 'bt',
    what: 'unknown fields too large together',
    over: { ...BETA, ...unknownBytesOf(unknownFieldsBytes + 1) },
    atCap: { ...BETA, ...unknownBytesOf(unknownFieldsBytes) },
    field: 'extra_big',
    cap: unknownFieldsBytes,
  },
  {
    route: 'images',
    what: 'a prompt',
    over: { model: 'img-unserved', prompt: 'p'.repeat(promptLength + 1) },
    atCap: { model: 'img-unserved', prompt: 'p'.repeat(promptLength) },
    field: 'prompt',
    cap: promptLength,
  },
];

const PATHS: Readonly<Record<Route, string>> = {
  videos: '/v1/videos',
  unified: '/v1/video/create',
  alpha: '/alpha/ent/v2/text2video',
  theta: '/v1/video/generations',
  lambda: '/lambda/submit/music',
  bt: '/bt?Action=CVSync2AsyncSubmitTask&Version=2022-08-31',
  images: '/v1/images/generations',
};

/** Where each dialect names the field a refusal is about, and how it says the call was refused. */
interface Refusal {
  message: string;
  param?: string;
}
/** The answers' fields the test reads, whatever the dialect. */
interface Answer {
  error?: Refusal;
  message?: string;
  code?: unknown;
}
const openAiStyle = (body: Answer): Refusal => body.error ?? { message: '' };
const familyEnvelope = (body: Answer): Refusal => ({ message: body.message ?? '' });
const REFUSAL_OF: Readonly<Record<Route, (body: Answer) => Refusal>> = {
  videos: openAiStyle,
  unified: openAiStyle,
  theta: openAiStyle,
  images: openAiStyle,
  alpha: familyEnvelope,
  lambda: familyEnvelope,
  bt: familyEnvelope,
};

/**
 * Every free-form field a task route keeps on its task row has a cap (STORED_FIELD_LIMITS,
 * docs/task-storage.md): one past it is a 400 in the route's dialect naming the field and the cap,
 * with nothing held and no task written; at the cap, the request goes on (a task is created; the
 * image route, whose model no channel offers, gets as far as routing).
 */
describe('caps of the fields a task row stores', () => {
  let harness: GatewayHarness;
  let key: string;
  let accountId: string;

  beforeAll(async () => {
    harness = await GatewayHarness.start();
    await seedVideoDemo(harness);
    await seedAlphaDemo(harness);
    await seedThetaChannel(harness);
    await seedMusicDemo(harness);
    await harness.seedBetaChannel({ models: ['beta-4.0'] });
    ({ key, accountId } = await newVideoAccount(harness));
  });
  afterAll(() => harness.close());

  const post = (route: Route, body: unknown) =>
    harness.request<Answer>('POST', PATHS[route], {
      body,
      headers: { authorization: `Bearer ${key}` },
    });
  const counts = async () => {
    const [row] = await harness.query<{ holds: string; tasks: string }>(
      `select (select count(*) from holds where account_id = $1) as holds,
              (select count(*) from tasks where account_id = $1) as tasks`,
      [accountId],
    );
    return { holds: Number(row.holds), tasks: Number(row.tasks) };
  };

  it.each(CASES.map((entry) => [entry.route, entry.what, entry] as const))(
    '%s: %s one past its cap is a 400 naming the field and the cap',
    async (route, _what, { over, field, cap }) => {
      const before = await counts();
      const answer = await post(route, over);
      expect(answer.status).toBe(400);
      const refusal = REFUSAL_OF[route](answer.body);
      expect(refusal.message).toContain(field);
      expect(refusal.message).toContain(String(cap));
      if (refusal.param !== undefined) expect(refusal.param).toBe(field);
      expect(await counts()).toEqual(before);
    },
  );

  it.each(CASES.map((entry) => [entry.route, entry.what, entry] as const))(
    '%s: %s at its cap is accepted',
    async (route, _what, { atCap }) => {
      const answer = await post(route, atCap);
      if (route === 'images') {
        expect(answer.status).toBe(404);
        return;
      }
      expect({ status: answer.status, text: answer.text.slice(0, 300) }).toEqual({
        status: 200,
        text: expect.any(String),
      });
      if (route === 'lambda') expect(answer.body.code).toBe('success');
      if (route === 'bt') expect(answer.body.code).toBe(10000);
    },
  );
});
