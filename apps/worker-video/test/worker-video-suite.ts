import type { TaskSeed } from './task-seed';
import { WorkerVideoHarness } from './worker-video-harness';

/** The seed account's credit: far more than every task of a run holds. */
const CREDIT_MICROS = 1_000_000_000n;
/** Building the apps takes most of it. */
const SETUP_TIMEOUT_MS = 180_000;

interface SuiteSimulator {
  readonly url: string;
  close(): Promise<void>;
}

export interface WorkerVideoSuiteSetup<Simulator, Seed> {
  /** Goes into the Redis prefix. */
  name: string;
  /** Settings of the suite's workers beyond the common ones. */
  extraEnvironment?: Record<string, string>;
  startSimulator(): Promise<Simulator>;
  /** The seed whose account and channel (in front of the simulator) are prepared before the tests. */
  seedOf(harness: WorkerVideoHarness): Seed;
}

/** What a suite's tests use, available once its `beforeAll` has run. */
export interface WorkerVideoSuite<Simulator, Seed> {
  readonly harness: WorkerVideoHarness;
  readonly simulator: Simulator;
  readonly seed: Seed;
}

/**
 * Registers the hooks of a describe block that runs the built worker-video against a simulator: before
 * all, the harness, the simulator and the seed's account; after each test, no worker left running;
 * after all, everything closed (also what a failed `beforeAll` had already started).
 */
export function useWorkerVideoSuite<Simulator extends SuiteSimulator, Seed extends TaskSeed>(
  setup: WorkerVideoSuiteSetup<Simulator, Seed>,
): WorkerVideoSuite<Simulator, Seed> {
  let harness: WorkerVideoHarness | undefined;
  let simulator: Simulator | undefined;
  let seed: Seed | undefined;

  beforeAll(async () => {
    harness = await WorkerVideoHarness.start(setup.name, setup.extraEnvironment);
    simulator = await setup.startSimulator();
    seed = setup.seedOf(harness);
    await seed.prepare({ creditMicros: CREDIT_MICROS, simulatorUrl: simulator.url });
  }, SETUP_TIMEOUT_MS);

  afterEach(() => harness?.stopWorkers());

  afterAll(async () => {
    await simulator?.close();
    await harness?.close();
  });

  function started<T>(value: T | undefined): T {
    if (value === undefined) throw new Error(`the ${setup.name} suite has not started`);
    return value;
  }
  return {
    get harness() {
      return started(harness);
    },
    get simulator() {
      return started(simulator);
    },
    get seed() {
      return started(seed);
    },
  };
}
