// What a task produced, as media the Tasks page can show. The admin task detail carries the gateway's
// own URLs of the outputs (never the upstream's, which expire and would break the CSP's 'self'); their
// field names are read tolerantly so that the page keeps working as the detail grows.

export type MediaKind = 'video' | 'audio' | 'image';

export interface MediaPreview {
  url: string;
  kind: MediaKind;
}

const URL_FIELDS = [
  'previewUrl',
  'previewUrls',
  'contentUrl',
  'resultUrl',
  'outputUrl',
  'videoUrl',
  'audioUrl',
  'imageUrl',
  'url',
];
const LIST_FIELDS = ['outputs', 'output', 'results', 'result', 'previews', 'preview', 'files', 'content'];
const MAX_DEPTH = 3;

/** Relative to this origin, or absolute on it: the CSP lets the page load nothing else. */
function sameOrigin(url: string, origin: string): string | undefined {
  if (url.startsWith('/') && !url.startsWith('//')) return url;
  try {
    const parsed = new URL(url);
    return parsed.origin === origin ? `${parsed.pathname}${parsed.search}` : undefined;
  } catch {
    return undefined;
  }
}

function kindOf(hint: string | undefined, url: string, taskKind: string): MediaKind {
  const text = `${hint ?? ''} ${url}`.toLowerCase();
  if (/video|\.mp4|\.webm|\.mov/.test(text)) return 'video';
  if (/audio|\.mp3|\.wav|\.ogg|\.m4a|\.aac|music/.test(text)) return 'audio';
  if (/image|\.png|\.jpe?g|\.webp|\.gif/.test(text)) return 'image';
  if (taskKind === 'music') return 'audio';
  if (taskKind === 'image') return 'image';
  return 'video';
}

function collect(
  value: unknown,
  depth: number,
  found: { url: string; hint?: string }[],
  hint?: string,
): void {
  if (depth > MAX_DEPTH || value === null || value === undefined) return;
  if (typeof value === 'string') {
    found.push({ url: value, hint });
    return;
  }
  if (Array.isArray(value)) {
    for (const item of value) collect(item, depth + 1, found, hint);
    return;
  }
  if (typeof value !== 'object') return;
  const record = value as Record<string, unknown>;
  const ownHint = [record['contentType'], record['mimeType'], record['type'], record['kind']].find(
    (entry): entry is string => typeof entry === 'string',
  );
  for (const field of URL_FIELDS) collect(record[field], depth + 1, found, ownHint ?? hint ?? field);
  for (const field of LIST_FIELDS) collect(record[field], depth + 1, found, ownHint ?? hint);
}

/** Every playable output of a task detail, de-duplicated, same-origin only. */
export function mediaPreviews(
  detail: Record<string, unknown>,
  taskKind: string,
  origin: string,
): MediaPreview[] {
  const found: { url: string; hint?: string }[] = [];
  for (const field of [...URL_FIELDS, ...LIST_FIELDS]) collect(detail[field], 0, found, field);
  const seen = new Set<string>();
  const previews: MediaPreview[] = [];
  for (const candidate of found) {
    const url = sameOrigin(candidate.url, origin);
    if (url === undefined || seen.has(url)) continue;
    seen.add(url);
    previews.push({ url, kind: kindOf(candidate.hint, url, taskKind) });
  }
  return previews;
}
