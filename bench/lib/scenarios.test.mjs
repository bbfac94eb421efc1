import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  answerProblem,
  largePrompt,
  openStreamPrompt,
  requestBody,
  requestHeaders,
  requestPath,
  scenarioPlan,
  SCENARIOS,
} from './scenarios.mjs';

test('the large prompt is exactly 64 KiB and the body stays valid JSON around it', () => {
  const prompt = largePrompt(65536);
  assert.equal(Buffer.byteLength(prompt), 65536);
  assert.equal(
    JSON.parse(requestBody('native', { prompt, stream: false })).contents[0].parts[0].text,
    prompt,
  );
});

test('open-stream pacing keeps a stream open for about the asked time', () => {
  assert.equal(openStreamPrompt(10), 'Say hello [[sim chunks=21;interval=500]]');
  assert.equal(openStreamPrompt(2, 400), 'Say hello [[sim chunks=6;interval=400]]');
});

test('streaming OpenAI-style bodies ask for usage; native streams use SSE', () => {
  assert.deepEqual(JSON.parse(requestBody('openai', { prompt: 'x', stream: true })).stream_options, {
    include_usage: true,
  });
  assert.equal(JSON.parse(requestBody('openai', { prompt: 'x', stream: false })).stream, undefined);
  assert.equal(requestPath('native', true), '/v1beta/models/kappa-2.0-flash:streamGenerateContent?alt=sse');
});

test('an answer is a success only when complete for its wire', () => {
  assert.equal(
    answerProblem('native', false, 200, '{"candidates":[],"usageMetadata":{"totalTokenCount":3}}'),
    null,
  );
  assert.match(answerProblem('openai', false, 200, '{"choices":[]}'), /no usage/);
  assert.match(answerProblem('openai', false, 401, '{"error":{}}'), /status 401/);
  assert.equal(answerProblem('openai', true, 200, 'data: {"choices":[]}\n\ndata: [DONE]\n\n'), null);
  assert.match(answerProblem('openai', true, 200, 'data: {"choices":[]}\n\n'), /without its end/);
  assert.match(answerProblem('native', true, 200, '{"candidates":[]}'), /not an SSE stream/);
});

test('a video task body scripts its completion time only when asked, and a create answers a video', () => {
  const timed = JSON.parse(requestBody('video-tasks', { prompt: 'A lighthouse', completionMs: 30000 }));
  assert.deepEqual(timed, {
    model: 'delta-2',
    prompt: 'A lighthouse [[sim task_ms=30000]]',
    seconds: '4',
    size: '1280x720',
  });
  assert.equal(JSON.parse(requestBody('video-tasks', { prompt: 'A lighthouse' })).prompt, 'A lighthouse');
  assert.equal(requestPath('video-tasks', false), '/v1/videos');
  assert.equal(answerProblem('video-tasks', false, 200, '{"id":"video_1","object":"video"}'), null);
  assert.match(answerProblem('video-tasks', false, 200, '{"error":{}}'), /not a video object/);
  assert.match(answerProblem('video-tasks', false, 400, '{"error":{}}'), /status 400/);
});

test('a plan keeps only the targets that serve the family', () => {
  const throughput = SCENARIOS.find((scenario) => scenario.name === 'throughput');
  const targets = {
    direct: { families: { native: {}, openai: {} } },
    proxy: { families: { openai: {} } },
  };
  assert.deepEqual(scenarioPlan(throughput, targets), [
    { family: 'native', targets: ['direct'] },
    { family: 'openai', targets: ['direct', 'proxy'] },
  ]);
});

test('the time-to-first-byte warm-up runs the same stream, unpaced', () => {
  const ttfb = SCENARIOS.find((scenario) => scenario.name === 'ttfb');
  const withoutPacing = (prompt) => prompt.replace(/\[\[sim [^\]]*\]\]/, '');
  assert.equal(ttfb.warmUpRequest.stream, ttfb.request.stream);
  assert.equal(withoutPacing(ttfb.warmUpRequest.prompt), withoutPacing(ttfb.request.prompt));
  assert.match(ttfb.request.prompt, /interval=20\b/);
  assert.match(ttfb.warmUpRequest.prompt, /chunks=3;interval=0\]\]/);
});

test('the image scenario asks for the small draw-2 size in each answer format, on the images route', () => {
  const images = SCENARIOS.find((scenario) => scenario.name === 'images');
  assert.deepEqual(images.families, ['image-url', 'image-b64']);
  assert.equal(images.connections, 16);
  assert.equal(requestPath('image-b64', false), '/v1/images/generations');
  assert.deepEqual(JSON.parse(requestBody('image-url', images.request)), {
    model: 'draw-2',
    prompt: images.request.prompt,
    size: '256x256',
    response_format: 'url',
  });
  assert.equal(JSON.parse(requestBody('image-b64', images.request)).response_format, 'b64_json');
});

test('an image answer is a success only when every item carries the format asked for', () => {
  assert.equal(
    answerProblem('image-url', false, 200, '{"created":1,"data":[{"url":"http://x/1.png"}]}'),
    null,
  );
  assert.equal(answerProblem('image-b64', false, 200, '{"data":[{"b64_json":"iVBORw0KGgo="}]}'), null);
  assert.match(
    answerProblem('image-b64', false, 200, '{"data":[{"url":"http://x/1.png"}]}'),
    /data\[0\] has no b64_json/,
  );
  assert.match(answerProblem('image-url', false, 200, '{"data":[]}'), /no image/);
  assert.match(answerProblem('image-url', false, 400, '{"error":{}}'), /status 400/);
});

test('the image plan runs only the image families, on the targets that serve them', () => {
  const images = SCENARIOS.find((scenario) => scenario.name === 'images');
  const targets = {
    direct: { families: { openai: {}, 'image-url': {}, 'image-b64': {} } },
    gateway: { families: { openai: {} } },
  };
  assert.deepEqual(scenarioPlan(images, targets), [
    { family: 'image-url', targets: ['direct'] },
    { family: 'image-b64', targets: ['direct'] },
  ]);
});

test('the body-memory scenario runs on the gateway alone, with the key the gateway holds for videos', () => {
  const bodyMemory = SCENARIOS.find((scenario) => scenario.name === 'body-memory');
  const gatewayKey = { authorization: 'Bearer gateway-key' };
  const targets = {
    direct: { families: { openai: {}, 'image-url': {} } },
    gateway: { families: { openai: gatewayKey, 'video-tasks': gatewayKey } },
    'insert-enqueue': { families: { 'video-tasks': gatewayKey } },
  };
  assert.deepEqual(scenarioPlan(bodyMemory, targets), [{ family: 'alpha-reference', targets: ['gateway'] }]);
  assert.equal(requestHeaders(bodyMemory, targets.gateway, 'alpha-reference'), gatewayKey);
  assert.deepEqual(scenarioPlan(bodyMemory, { gateway: { families: { openai: gatewayKey } } }), []);
  assert.equal(requestPath('alpha-reference', false), '/alpha/ent/v2/reference2video');
});

test('an alpha submission succeeds only when it answers a task id', () => {
  const accepted = '{"task_id":"task_1","status":"submitted","created_at":1}';
  assert.equal(answerProblem('alpha-reference', false, 200, accepted), null);
  assert.match(answerProblem('alpha-reference', false, 200, '{"task_id":""}'), /no task_id/);
  assert.match(answerProblem('alpha-reference', false, 413, '{"code":413}'), /status 413/);
});
