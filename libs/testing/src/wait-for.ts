/** How often the condition is checked again while it does not hold. */
const POLL_INTERVAL_MS = 25;

/**
 * Resolves once `check` returns true, checking it again every 25 ms. For the conditions a test cannot
 * await directly because another process or a queue makes them true (a job reaching a state, a row
 * being written); after `timeoutMs` it fails with a clear message instead of hanging until Jest's own
 * test timeout.
 */
export async function waitFor(check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition not met in time (${timeoutMs} ms)`);
    await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
  }
}
