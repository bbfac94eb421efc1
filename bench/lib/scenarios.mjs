// What is measured: the scenarios, the requests they send per route family, and how an answer is
// recognised as a success. Route families: "native" (contents/parts under /v1beta) and "openai"
// (OpenAI-style chat under /v1).

export const FAMILIES = ['native', 'openai'];
export const FAMILY_LABELS = { native: 'native generateContent', openai: 'OpenAI-style chat' };

const NATIVE_MODEL = 'kappa-2.0-flash';
const OPENAI_MODEL = 'chat-fast';
const LARGE_PROMPT_BYTES = 64 * 1024;

/** Every target that measures a scenario, in round order; the filter drops what a target cannot serve. */
const ALL_TARGETS = ['direct', 'proxy', 'gateway', 'gateway-warn', 'peer'];
const MAIN_TARGETS = ['direct', 'proxy', 'gateway', 'peer'];

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

export function requestPath(family, stream) {
  if (family === 'native') {
    return stream
      ? `/v1beta/models/${NATIVE_MODEL}:streamGenerateContent?alt=sse`
      : `/v1beta/models/${NATIVE_MODEL}:generateContent`;
  }
  return '/v1/chat/completions';
}

export function requestBody(family, { prompt, stream }) {
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
  const usage = family === 'native' ? message.usageMetadata : message.usage;
  if (!usage) return `no usage in the answer: ${text.slice(0, 200)}`;
  return null;
}

/** Which (family, target) pairs a scenario runs, given the targets that are up. */
export function scenarioPlan(scenario, availableTargets) {
  return FAMILIES.map((family) => ({
    family,
    targets: scenario.targets.filter((name) => availableTargets[name]?.families[family]),
  })).filter((entry) => entry.targets.length > 0);
}
