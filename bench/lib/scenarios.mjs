// What is measured: the scenarios, the requests they send per route family, and how an answer is
// recognised as a success. Route families: "native" (contents/parts under /v1beta), "openai"
// (OpenAI-style chat under /v1), the two answer formats of /v1/images/generations, "video-tasks"
// (POST /v1/videos), "alpha-reference" (the alpha family's POST /alpha/ent/v2/reference2video) and
// "task-events" (GET /v1/tasks/{id}/events).

export const FAMILIES = ['native', 'openai'];
export const IMAGE_FAMILIES = ['image-url', 'image-b64'];
export const TASK_FAMILIES = ['video-tasks'];
export const ALPHA_REFERENCE_FAMILY = 'alpha-reference';
export const TASK_EVENTS_FAMILY = 'task-events';
export const FAMILY_LABELS = {
  native: 'native generateContent',
  openai: 'OpenAI-style chat',
  'image-url': 'images/generations, response_format url',
  'image-b64': 'images/generations, response_format b64_json',
  'video-tasks': 'videos, create then poll to completion',
  [ALPHA_REFERENCE_FAMILY]: 'alpha reference2video, one 20 MiB body at a time',
  [TASK_EVENTS_FAMILY]: 'task progress streams, idle and with progress',
};
const IMAGE_RESPONSE_FORMATS = { 'image-url': 'url', 'image-b64': 'b64_json' };

const NATIVE_MODEL = 'kappa-2.0-flash';
const OPENAI_MODEL = 'chat-fast';
const LARGE_PROMPT_BYTES = 64 * 1024;
// draw-2 answers URLs (the gateway downloads them through its SSRF-safe fetcher, then stores them or
// encodes them) and takes its smallest size, so that the figures are the gateway's, not PNG bytes'.
const IMAGE_MODEL = 'draw-2';
const IMAGE_SIZE = '256x256';
// A video task: the simulator completes it `completionMs` after its upstream create (the prompt's
// task_ms directive, which the gateway passes on with the prompt).
const VIDEO_MODEL = 'delta-2';
const VIDEO_SECONDS = '4';
const VIDEO_SIZE = '1280x720';

/** Every target that measures a scenario, in round order; the filter drops what a target cannot serve. */
const ALL_TARGETS = ['direct', 'proxy', 'gateway', 'gateway-warn'];
const MAIN_TARGETS = ['direct', 'proxy', 'gateway'];

export const SCENARIOS = [
  {
    name: 'latency',
    title: '1. Non-stream chat, 1 connection (latency)',
    kind: 'wrk',
    connections: 1,
    request: { prompt: 'Say hello', stream: false },
    targets: ALL_TARGETS,
  },
  {
    name: 'throughput',
    title: '2. Non-stream chat, 64 connections (throughput)',
    kind: 'wrk',
    connections: 64,
    request: { prompt: 'Say hello', stream: false },
    targets: ALL_TARGETS,
  },
  {
    name: 'stream',
    title: '3. SSE stream, 64 connections (3 chunks, no pause)',
    kind: 'wrk',
    connections: 64,
    request: { prompt: 'Say hello [[sim chunks=3;interval=0]]', stream: true },
    targets: MAIN_TARGETS,
  },
  {
    name: 'ttfb',
    title: '4. Time to first streamed byte, 1 connection (3 chunks, 20 ms apart; the first at once)',
    kind: 'ttfb',
    connections: 1,
    request: { prompt: 'Say hello [[sim chunks=3;interval=20]]', stream: true },
    // The paced requests alone (about 25 a second) would leave the JIT cold; the warm-up round runs
    // the same streaming path unpaced first, as the wrk scenarios' warm-up does for theirs.
    warmUpRequest: { prompt: 'Say hello [[sim chunks=3;interval=0]]', stream: true },
    targets: MAIN_TARGETS,
  },
  {
    name: 'large-prompt',
    title: '5. 64 KiB prompt, non-stream, 16 connections',
    kind: 'wrk',
    connections: 16,
    request: { prompt: largePrompt(LARGE_PROMPT_BYTES), stream: false },
    targets: MAIN_TARGETS,
  },
  {
    name: 'open-streams',
    title: '6. Concurrent open streams (memory)',
    kind: 'open-streams',
    request: { stream: true },
    targets: MAIN_TARGETS,
  },
  {
    name: 'images',
    title: `7. Image generation, 16 connections (${IMAGE_MODEL}, ${IMAGE_SIZE}, url and b64_json)`,
    kind: 'wrk',
    connections: 16,
    request: { prompt: 'A lighthouse at dawn', stream: false },
    families: IMAGE_FAMILIES,
    targets: MAIN_TARGETS,
  },
  {
    name: 'tasks',
    title: `8. Video tasks (${VIDEO_MODEL}): creations at 32 connections, then every task polled to its end`,
    kind: 'tasks',
    connections: 32,
    request: { prompt: 'A lighthouse at dawn', stream: false },
    families: TASK_FAMILIES,
    // Task counts and completion time come from the mode (run.mjs). The plain insert-and-enqueue only
    // creates (performance.md's yardstick of the creation rate); only the gateway's tasks are polled.
    // It goes first: the gateway's run waits for pg_stat_database to show what ran before it.
    targets: ['insert-enqueue', 'gateway'],
  },
  {
    name: 'body-memory',
    title: '9. A 20 MiB alpha reference2video body (peak RSS growth of the gateway)',
    kind: 'body-memory',
    families: [ALPHA_REFERENCE_FAMILY],
    // The alpha route takes the stack's bearer key, the one the gateway target holds for /v1/videos.
    keyFamily: 'video-tasks',
    // The demo's alpha channel and prices (tools/lib/demo-seed.mjs) exist on the gateway stack only.
    targets: ['gateway'],
  },
  {
    name: 'admin-figures',
    title:
      '10. GET /admin/usage and /admin/overview over 1,000,000 request-log rows, and the CSV export’s RSS',
    // Its own database and gateway (bench/lib/admin-figures.mjs); the stack's targets are not used.
    kind: 'admin-figures',
    targets: ['gateway'],
  },
  {
    name: 'task-streams',
    title: '11. Open task progress streams (GET /v1/tasks/{id}/events): gateway RSS and CPU',
    // bench/lib/task-streams.mjs: running tasks written into the stack's database for its account, whose
    // key the gateway holds for /v1/videos. Stream and task counts come from the mode (run.mjs).
    kind: 'task-streams',
    families: [TASK_EVENTS_FAMILY],
    keyFamily: 'video-tasks',
    targets: ['gateway'],
  },
];

/** A prompt of exactly `bytes` ASCII characters (ordinary words, so tokenisation is not degenerate). */
export function largePrompt(bytes) {
  const words = 'the quick brown fox jumps over the lazy dog while a gateway relays every byte of it ';
  return words.repeat(Math.ceil(bytes / words.length)).slice(0, bytes);
}

/** Pacing of the open-streams scenario: the simulator keeps each stream open for about `seconds`. */
export function openStreamPrompt(seconds, intervalMs = 500) {
  const chunks = Math.max(2, Math.round((seconds * 1000) / intervalMs) + 1);
  return `Say hello [[sim chunks=${chunks};interval=${intervalMs}]]`;
}

const isImageFamily = (family) => IMAGE_FAMILIES.includes(family);
const isTaskFamily = (family) => TASK_FAMILIES.includes(family);

export function requestPath(family, stream) {
  if (family === ALPHA_REFERENCE_FAMILY) return '/alpha/ent/v2/reference2video';
  if (isImageFamily(family)) return '/v1/images/generations';
  if (isTaskFamily(family)) return '/v1/videos';
  if (family === 'native') {
    return stream
      ? `/v1beta/models/${NATIVE_MODEL}:streamGenerateContent?alt=sse`
      : `/v1beta/models/${NATIVE_MODEL}:generateContent`;
  }
  return '/v1/chat/completions';
}

/** `completionMs` (video tasks): how long the simulator takes; without it the first poll completes. */
export function requestBody(family, { prompt, stream, completionMs }) {
  if (isTaskFamily(family)) {
    return JSON.stringify({
      model: VIDEO_MODEL,
      prompt: completionMs === undefined ? prompt : `${prompt} [[sim task_ms=${completionMs}]]`,
      seconds: VIDEO_SECONDS,
      size: VIDEO_SIZE,
    });
  }
  if (isImageFamily(family)) {
    return JSON.stringify({
      model: IMAGE_MODEL,
      prompt,
      size: IMAGE_SIZE,
      response_format: IMAGE_RESPONSE_FORMATS[family],
    });
  }
  if (family === 'native') return JSON.stringify({ contents: [{ role: 'user', parts: [{ text: prompt }] }] });
  return JSON.stringify({
    model: OPENAI_MODEL,
    messages: [{ role: 'user', content: prompt }],
    ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
  });
}

/** What the last bytes of a complete stream contain. */
export function streamEndMarker(family) {
  return family === 'native' ? '"finishReason"' : '[DONE]';
}

/** null when the answer is a complete success of the family's wire; otherwise what is wrong. */
export function answerProblem(family, stream, status, text) {
  if (status !== 200) return `status ${status}: ${text.slice(0, 300)}`;
  if (stream) {
    if (!text.startsWith('data:')) return `not an SSE stream: ${text.slice(0, 200)}`;
    return text.includes(streamEndMarker(family)) ? null : `stream without its end: ${text.slice(-200)}`;
  }
  let message;
  try {
    message = JSON.parse(text);
  } catch {
    return `not JSON: ${text.slice(0, 200)}`;
  }
  if (isImageFamily(family)) return imageAnswerProblem(family, message, text);
  if (family === ALPHA_REFERENCE_FAMILY) {
    const accepted = typeof message.task_id === 'string' && message.task_id !== '';
    return accepted ? null : `no task_id in the answer: ${text.slice(0, 200)}`;
  }
  if (isTaskFamily(family)) {
    const created = message.object === 'video' && typeof message.id === 'string' && message.id !== '';
    return created ? null : `not a video object: ${text.slice(0, 200)}`;
  }
  const usage = family === 'native' ? message.usageMetadata : message.usage;
  if (!usage) return `no usage in the answer: ${text.slice(0, 200)}`;
  return null;
}

/** An image answer succeeds when every item carries the format asked for. */
function imageAnswerProblem(family, message, text) {
  const field = family === 'image-url' ? 'url' : 'b64_json';
  const items = message.data;
  if (!Array.isArray(items) || items.length === 0) return `no image in the answer: ${text.slice(0, 200)}`;
  const missing = items.findIndex((item) => typeof item?.[field] !== 'string' || item[field] === '');
  return missing === -1 ? null : `data[${missing}] has no ${field}: ${text.slice(0, 200)}`;
}

/** The headers (the key) a target takes for a scenario's family; undefined when it does not serve it. */
export function requestHeaders(scenario, target, family) {
  return target?.families[scenario.keyFamily ?? family];
}

/**
 * Which (family, target) pairs a scenario runs, given the targets that are up. The traced replica and
 * the --baseline build measure whatever the gateway measures, right after it in each round.
 */
export function scenarioPlan(scenario, availableTargets) {
  const names = scenario.targets.flatMap((name) =>
    name === 'gateway' ? ['gateway', 'gateway-traced', 'baseline'] : [name],
  );
  return (scenario.families ?? FAMILIES)
    .map((family) => ({
      family,
      targets: names.filter((name) => requestHeaders(scenario, availableTargets[name], family)),
    }))
    .filter((entry) => entry.targets.length > 0);
}
