import { createSimulatorServer } from '@gateway/simulators';
import { readSimEnvironment } from './sim-environment';

/** Upper bound for draining in-flight simulated responses on shutdown. */
const SHUTDOWN_GRACE_MS = 10_000;

async function main(): Promise<void> {
  const environment = readSimEnvironment(process.env);
  const server = createSimulatorServer({ keys: environment.keys, logger: environment.logger });
  const address = await server.listen({ port: environment.port, host: environment.host });
  process.stdout.write(`upstream-sim listening on ${address}\n`);
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS).unref();
      server.close().then(
        () => process.exit(0),
        (error: unknown) => {
          process.stderr.write(`upstream-sim shutdown failed: ${String(error)}\n`);
          process.exit(1);
        },
      );
    });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
