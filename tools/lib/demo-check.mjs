// quickstart --check: one text generation, two image generations (Base64 and URL), one video task
// (created, polled until completed, its bytes downloaded), one refused by the upstream's moderation at
// create (a 400: the demo sets TASK_SUBMIT_AT_CREATE_MS), one music task (submitted, fetched until
// complete, a clip downloaded) and the theta 2.0 asset workflow (group, asset until Active, a video
// citing it, its bytes), all with the demo key.
import { imageSize } from 'image-size';

const TASK_TIMEOUT_MS = 30_000;
const POLL_INTERVAL_MS = 500;

/** The image's `WxH type`, or throws when the bytes are not an image. */
function describeImage(bytes) {
  const { width, height, type } = imageSize(bytes);
  return `${width}x${height} ${type}`;
}

/** Calls `read` every half second until `done` holds for its answer or the time is up; the last answer. */
async function pollUntil(read, done) {
  const deadline = Date.now() + TASK_TIMEOUT_MS;
  let answer = await read();
  while (!done(answer) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
    answer = await read();
  }
  return answer;
}

/** `Bearer` auth headers, with a JSON content type for bodies. */
const jsonHeaders = (key) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });

async function postJson(url, key, body) {
  const response = await fetch(url, {
    method: 'POST',
    headers: jsonHeaders(key),
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

async function getJson(url, key) {
  const response = await fetch(url, { headers: jsonHeaders(key) });
  return { status: response.status, body: await response.json() };
}

/** Downloads a file of the gateway with the key; `<bytes> bytes of <type>`, or throws unless a non-empty 200. */
async function download(url, key) {
  const response = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
  const bytes = (await response.arrayBuffer()).byteLength;
  if (response.status !== 200 || bytes === 0) {
    throw new Error(`${url} answered ${response.status}, ${bytes} bytes`);
  }
  return `${bytes} bytes of ${response.headers.get('content-type')}`;
}

/** A check's line for an answer other than 200. */
const refusal = (what, answer) => ({
  ok: false,
  line: `${what} answered ${answer.status}: ${JSON.stringify(answer.body)}`,
});

/** Runs one check: prints its line and how long it took; a failure (thrown or not) with the reason. */
async function check(label, run) {
  const startedAt = Date.now();
  const took = () => `(${((Date.now() - startedAt) / 1000).toFixed(1)} s)`;
  try {
    const { ok, line } = await run();
    console.log(`${label} ${line} ${took()}`);
    return ok;
  } catch (error) {
    console.log(`${label} failed: ${error.message} ${took()}`);
    return false;
  }
}

function checkText({ gatewayUrl, key }) {
  return check('demo request', async () => {
    const response = await fetch(`${gatewayUrl}/v1beta/models/kappa-2.0-flash:generateContent`, {
      method: 'POST',
      headers: { 'x-vendor-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'Say hello' }] }] }),
    });
    return { ok: response.status === 200, line: `answered ${response.status}: ${await response.text()}` };
  });
}

function checkImage({ gatewayUrl, key }, model, responseFormat) {
  return check(`image request ${model} (${responseFormat})`, async () => {
    const answer = await postJson(`${gatewayUrl}/v1/images/generations`, key, {
      model,
      prompt: 'A lighthouse at dawn',
      response_format: responseFormat,
    });
    const head = `answered ${answer.status}`;
    if (answer.status !== 200) return { ok: false, line: `${head}: ${JSON.stringify(answer.body)}` };
    const item = answer.body.data[0];
    let bytes;
    if (responseFormat === 'url') {
      const file = await fetch(item.url);
      if (file.status !== 200) throw new Error(`${item.url} answered ${file.status}`);
      bytes = new Uint8Array(await file.arrayBuffer());
    } else bytes = new Uint8Array(Buffer.from(item.b64_json, 'base64'));
    return { ok: true, line: `${head}: ${describeImage(bytes)}${item.url ? ` at ${item.url}` : ''}` };
  });
}

/** Polls a video (OpenAI-style or theta route) until it ends, then downloads its `video_url`. */
async function finishVideo({ key }, queryUrl) {
  const { body: video } = await pollUntil(
    () => getJson(queryUrl, key),
    ({ body }) => ['completed', 'failed', 'cancelled'].includes(body.status),
  );
  if (video.status !== 'completed') return { ok: false, line: `ended: ${JSON.stringify(video)}` };
  return { ok: true, line: `completed: ${await download(video.video_url, key)} at ${video.video_url}` };
}

function checkVideo(demo, model) {
  return check(`video task ${model}`, async () => {
    const created = await postJson(`${demo.gatewayUrl}/v1/videos`, demo.key, {
      model,
      prompt: 'Waves on a quiet beach',
    });
    if (created.status !== 200) return refusal('create', created);
    return finishVideo(demo, `${demo.gatewayUrl}/v1/videos/${created.body.id}`);
  });
}

/** A prompt the upstream's moderation refuses at its create: the demo answers it 400, charging nothing. */
function checkVideoRefusal({ gatewayUrl, key }) {
  return check('video refused by upstream moderation', async () => {
    const refused = await postJson(`${gatewayUrl}/v1/videos`, key, {
      model: 'delta-2',
      prompt: 'Something forbidden [[sim block=prompt]]',
    });
    const code = refused.body?.error?.code;
    const ok = refused.status === 400 && code === 'content_policy_violation';
    return { ok, line: `${refused.status} ${code}: ${refused.body?.error?.message}` };
  });
}

function checkMusic({ gatewayUrl, key }) {
  return check('music task lambda-v3-0', async () => {
    const submitted = await postJson(`${gatewayUrl}/lambda/submit/music`, key, {
      mv: 'lambda-v3-0',
      description_prompt: 'A calm piano piece',
    });
    if (submitted.status !== 200) return refusal('submit', submitted);
    const { body: fetched } = await pollUntil(
      () => getJson(`${gatewayUrl}/lambda/fetch/${submitted.body.data}`, key),
      ({ body }) => ['SUCCESS', 'FAILURE'].includes(body.data?.status),
    );
    const task = fetched.data;
    if (task?.status !== 'SUCCESS') return { ok: false, line: `ended: ${JSON.stringify(fetched)}` };
    const clip = task.data[0];
    return {
      ok: true,
      line: `completed with ${task.data.length} clips: ${await download(clip.audio_url, key)} at ${clip.audio_url}`,
    };
  });
}

/** The theta 2.0 workflow in its order: group, asset (until Active), a video citing it, its bytes. */
function checkThetaAssets(demo) {
  const asset = (action, body) => postJson(`${demo.gatewayUrl}/v1/theta/asset/${action}`, demo.key, body);
  return check('theta 2.0 asset workflow:', async () => {
    const group = await asset('CreateAssetGroup', { Name: 'demo' });
    if (group.status !== 200) return refusal('CreateAssetGroup', group);
    const created = await asset('CreateAsset', {
      GroupId: group.body.GroupId,
      URL: `${demo.simulatorUrl}/files/kite.png`,
      Name: 'kite',
      AssetType: 'Image',
    });
    if (created.status !== 200) return refusal('CreateAsset', created);
    const { body: processed } = await pollUntil(
      () => asset('GetAsset', { Id: created.body.AssetId }),
      ({ body }) => body.Status !== 'Processing',
    );
    if (processed.Status !== 'Active') return { ok: false, line: `asset: ${JSON.stringify(processed)}` };
    const video = await postJson(`${demo.gatewayUrl}/v1/video/generations`, demo.key, {
      model: 'eta-theta-2-0-fast-260128',
      content: [
        { type: 'text', text: 'The kite over a bay at dusk' },
        { type: 'image_url', image_url: { url: `asset://${processed.Id}` }, role: 'reference_image' },
      ],
      metadata: { duration: 5, ratio: '16:9', resolution: '720p' },
    });
    if (video.status !== 200) return refusal('video', video);
    const ended = await finishVideo(demo, `${demo.gatewayUrl}/v1/video/generations/${video.body.task_id}`);
    return { ok: ended.ok, line: `${processed.Id} Active; video ${ended.line}` };
  });
}

/** Runs every check (all of them, so the output shows each answer) and says whether all passed. */
export async function checkDemo(demo) {
  const results = [
    await checkText(demo),
    await checkImage(demo, 'img-1', 'b64_json'),
    await checkImage(demo, 'draw-2', 'url'),
    await checkVideo(demo, 'delta-2'),
    await checkVideoRefusal(demo),
    await checkMusic(demo),
    await checkThetaAssets(demo),
  ];
  return results.every(Boolean);
}
