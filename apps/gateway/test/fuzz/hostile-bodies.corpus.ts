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
  /**
   * Sent with the key of an account of its own, which it may be charged to: a body valid on a
   * generation route, there to check what its answer echoes (a field name in a warning header).
   */
  spends?: boolean;
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
 * An unknown field named with 20 KB beside fields each family reads: a name no answer header may echo
 * whole (warnings name dropped fields). Valid bodies on the routes named; charged there, so `spends`.
 */
function longFieldNameBodies(): HostileBody[] {
  const field = `"${'f'.repeat(20 * 1024)}":1`;
  const body = (name: string, text: string, validFor: string[] = []): HostileBody => ({
    category: 'generated',
    name,
    bytes: Buffer.from(text, 'utf8'),
    contentType: JSON_TYPE,
    validFor,
    spends: validFor.length > 0,
  });
  return [
    body('an unknown field of 20 KB alone', `{${field}}`),
    body(
      'a chat body with an unknown field of 20 KB',
      `{"model":"chat-fast","messages":[{"role":"user","content":"x"}],${field}}`,
      ['chat'],
    ),
    body(
      'a native body with a generation config field of 20 KB',
      `{"contents":[{"parts":[{"text":"x"}]}],"generationConfig":{${field}}}`,
      ['native generate', 'native stream'],
    ),
    body('an image body with an unknown field of 20 KB', `{"model":"img-1","prompt":"A fox",${field}}`, [
      'image generations',
      'image generations (respond-async)',
    ]),
    body(
      'a bt body with an unknown field of 20 KB',
      `{"req_key":"beta_t2i_v40","prompt":"a kite","width":1024,"height":1024,${field}}`,
      ['bt submit'],
    ),
    body('a video body with an unknown field of 20 KB', `{"model":"delta-2","prompt":"A kite",${field}}`),
    body(
      'a video body with a metadata field of 20 KB',
      `{"model":"delta-2","prompt":"A kite","metadata":{${field}}}`,
    ),
    body(
      'a theta body with an unknown field of 20 KB',
      `{"model":"eta-theta-2-0-260128","content":[{"type":"text","text":"a kite"}],${field}}`,
    ),
    body(
      'an alpha body with an unknown field of 20 KB',
      `{"model":"alphaq2-pro","prompt":"a kite",${field}}`,
    ),
    body(
      'a gamma body with an unknown field of 20 KB',
      `{"model_name":"gamma-v2-6","prompt":"a fox",${field}}`,
    ),
    body('a lambda body with an unknown field of 20 KB', `{"prompt":"a song",${field}}`),
    body('lambda ids with an unknown field of 20 KB', `{"ids":[],${field}}`, ['lambda fetch']),
    body('an admin account with an unknown field of 20 KB', `{"name":"fuzz",${field}}`),
  ];
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
    ...longFieldNameBodies(),
  ];
}

/** Every hostile body: the corpus kept as data (hostile-bodies.jsonl) and the generated ones. */
export function loadHostileBodies(bodyLimitBytes: number): HostileBody[] {
  const lines = readFileSync(join(__dirname, 'hostile-bodies.jsonl'), 'utf8').split('\n');
  return [...lines.filter((line) => line.trim() !== '').map(fromLine), ...generatedBodies(bodyLimitBytes)];
}
