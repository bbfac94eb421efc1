import { isRecord } from './sample-arguments.util';

/** The body as a JSON object, or undefined when it is not valid JSON or not an object. */
export function parseJsonObject(rawBody: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(rawBody);
    return isRecord(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}
