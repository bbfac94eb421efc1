/** What a caught value says, for a log field or a one-line report: an Error's message, else its text. */
export function errorMessageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
