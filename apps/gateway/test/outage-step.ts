import type { GatewayHarness } from './gateway-harness';

/**
 * A step a fault test takes while a dependency is away, which must end within `ms`. A hang fails
 * naming the step, with the gateway's last log lines, instead of running into Jest's timeout, where
 * the test's `finally` (which brings the dependency back) never ran and the teardown hung too (seen
 * once in .ci/run).
 */
export async function outageStep<T>(
  harness: GatewayHarness,
  name: string,
  promise: Promise<T>,
  ms: number,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const logs = harness.logs.slice(-20).join('\n');
      reject(new Error(`${name} did not end within ${ms} ms; the gateway's last lines:\n${logs}`));
    }, ms);
  });
  try {
    return await Promise.race([promise, hung]);
  } finally {
    clearTimeout(timer);
  }
}
