import { Directives } from '../directives';
import { tokensForText } from '../tokens.util';
import { CompatImageJob } from './compat-image-request';
import { IMAGE_PART_TOKENS } from './compat-request';

/** One `data[]` item before framing: a link or the Base64 bytes. */
export type CompatImageItem = { url: string } | { b64_json: string };

/**
 * Output tokens of one 1024×1024 image per quality tier; other sizes scale with their area (the
 * upstream's published table, which gives 4160 for `high`, as in the example of upstreams.md §2.3).
 */
const OUTPUT_TOKENS_AT_1024_SQUARE: Record<string, number> = { low: 272, medium: 1056, high: 4160 };
const SQUARE_1024_AREA = 1024 * 1024;

/** The answer of §2.3: `created`, `data[]`, and for `img-*` the resolved options and the usage. */
export function toCompatImageResponse(
  job: CompatImageJob,
  items: CompatImageItem[],
  directives: Directives,
): Record<string, unknown> {
  const revisedPrompt = directives.text ?? job.prompt;
  const data = job.rules.revisesPrompt
    ? items.map((item) => ({ ...item, revised_prompt: revisedPrompt }))
    : items;
  const response: Record<string, unknown> = { created: Math.floor(Date.now() / 1000), data };
  if (!job.rules.imageOptions) return response;
  return {
    ...response,
    background: job.background,
    output_format: job.outputFormat,
    quality: job.quality,
    size: `${job.width}x${job.height}`,
    usage: usageOf(job, directives),
  };
}

function usageOf(job: CompatImageJob, directives: Directives): Record<string, unknown> {
  const textTokens = directives.usage?.input ?? tokensForText(job.prompt);
  const imageTokens = directives.usage ? 0 : job.inputImageCount * IMAGE_PART_TOKENS;
  const perImage = Math.round(
    ((OUTPUT_TOKENS_AT_1024_SQUARE[job.quality ?? 'high'] ?? 0) * job.width * job.height) / SQUARE_1024_AREA,
  );
  const outputTokens = directives.usage?.output ?? job.count * perImage;
  const inputTokens = textTokens + imageTokens;
  return {
    total_tokens: inputTokens + outputTokens,
    input_tokens: inputTokens,
    output_tokens: outputTokens,
    input_tokens_details: { text_tokens: textTokens, image_tokens: imageTokens },
  };
}
