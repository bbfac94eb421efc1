import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One hostile request body, as bytes, with the content type it is sent with. */
export interface HostileBody {
  category: string;
  name: string;
  bytes: Buffer;
  /** `null`: no Content-Type header at all. */
  contentType: string | null;
  /**
   * Routes (as named by the fuzz spec) on which this body is in fact valid, where a 2xx is the right
   * answer; everywhere else it must be a 4xx.
   */
  validFor: readonly string[];
}

/** A line of hostile-bodies.jsonl: text bodies as `body`, byte-level ones (bad UTF-8) as `bodyBase64`. */
interface CorpusLine {
  category: string;
  name: string;
  body?: string;
  bodyBase64?: string;
  contentType?: string | null;
  validFor?: string[];
}

const JSON_TYPE = 'application/json';

function fromLine(line: string): HostileBody {
  const entry = JSON.parse(line) as CorpusLine;
  const bytes =
    entry.bodyBase64 !== undefined
      ? Buffer.from(entry.bodyBase64, 'base64')
      : Buffer.from(entry.body ?? '', 'utf8');
  return {
    category: entry.category,
    name: entry.name,
    bytes,
    contentType: entry.contentType === undefined ? JSON_TYPE : entry.contentType,
    validFor: entry.validFor ?? [],
  };
}

/** Items joined into a JSON array, built as bytes without building the values. */
function jsonList(item: string, count: number): string {
  return `[${new Array<string>(count).fill(item).join(',')}]`;
}

/**
 * Bodies too large to keep as data, built when the spec runs: the shapes that stalled or crashed a
 * replica (issue 24), each above one of the limits of BODY_SHAPE_LIMITS or TEXT_REQUEST_LIMITS.
 */
function generatedBodies(bodyLimitBytes: number): HostileBody[] {
  const generated = (name: string, text: string | Buffer): HostileBody => ({
    category: 'generated',
    name,
    bytes: typeof text === 'string' ? Buffer.from(text, 'utf8') : text,
    contentType: JSON_TYPE,
    validFor: [],
  });
  const keys = Array.from({ length: 200_000 }, (_, index) => `"k${index}":0`).join(',');
  return [
    generated('native contents of 1,000,000 empty items', `{"contents":${jsonList('{}', 1_000_000)}}`),
    generated(
      'chat messages of 1,000,000 empty objects',
      `{"model":"chat-fast","messages":${jsonList('{}', 1_000_000)}}`,
    ),
    generated('100,000 nested arrays', `${'['.repeat(100_000)}${']'.repeat(100_000)}`),
    generated('an object of 200,000 fields', `{${keys}}`),
    generated('300,000 values in lists of 10,000', `{"rows":${jsonList(jsonList('0', 10_000), 30)}}`),
    generated(
      'stop sequences of 100,000 items',
      `{"contents":[{"parts":[{"text":"x"}]}],"generationConfig":{"stopSequences":${jsonList('"a"', 100_000)}}}`,
    ),
    generated(
      'a model name of 5 MB',
      `{"model":"${'m'.repeat(5_000_000)}","messages":[{"role":"user","content":"x"}]}`,
    ),
    generated('a field name of 1 MB', `{"${'k'.repeat(1_000_000)}":1}`),
    generated(
      'image references of 10,000 items',
      `{"model":"img-2","prompt":"A fox","image":${jsonList('"iVBORw0KGgo="', 10_000)}}`,
    ),
    generated('an image prompt of 100,001 characters', `{"model":"img-1","prompt":"${'p'.repeat(100_001)}"}`),
    generated(
      'bt image_urls of 10,000 items',
      `{"req_key":"beta_t2i_v40","prompt":"a kite","image_urls":${jsonList('"https://example.com/a.png"', 10_000)}}`,
    ),
    generated(
      'bt image_urls of one URL of 1 MB',
      `{"req_key":"beta_t2i_v40","prompt":"a kite","image_urls":["https://example.com/${'a'.repeat(1_000_000)}"]}`,
    ),
    generated(
      'bt binary_data_base64 of 10,000 items',
      `{"req_key":"beta_t2i_v40","prompt":"a kite","binary_data_base64":${jsonList('"iVBORw0KGgo="', 10_000)}}`,
    ),
    generated(
      'video images of 10,000 items',
      `{"model":"delta-2","prompt":"A kite","images":${jsonList('"https://example.com/a.png"', 10_000)}}`,
    ),
    generated(
      'a video prompt of 100,001 characters',
      `{"model":"delta-2","prompt":"${'p'.repeat(100_001)}"}`,
    ),
    generated('lambda ids of 10,000 items', `{"ids":${jsonList('"music_AAAAAAAAAAAAAAAAAAAAAA"', 10_000)}}`),
    generated('one byte over the body limit', Buffer.alloc(bodyLimitBytes + 1, 0x20)),
  ];
}

/** Every hostile body: the corpus kept as data (hostile-bodies.jsonl) and the generated ones. */
export function loadHostileBodies(bodyLimitBytes: number): HostileBody[] {
  const lines = readFileSync(join(__dirname, 'hostile-bodies.jsonl'), 'utf8').split('\n');
  return [...lines.filter((line) => line.trim() !== '').map(fromLine), ...generatedBodies(bodyLimitBytes)];
}
