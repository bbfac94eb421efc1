// Jest's Node environment with one vm context per worker instead of one per test file, so that the
// files of a worker can share their modules (worker-modules.js): a module loaded in one context and
// used from another would fail every `instanceof` across the two.
//
// Each file still gets what Jest's own environment gives it afresh and takes back at its end: mocks
// (a module mocker of its own), fake timers (installed on the shared global, uninstalled at the end),
// the globals Jest's test runner sets for it, and `process.env` as the worker had it.
// perf-machinery: jest-worker-modules (docs/performance-machinery.md)
const { default: NodeEnvironment } = require('jest-environment-node');
const { LegacyFakeTimers, ModernFakeTimers } = require('@jest/fake-timers');
const { ModuleMocker } = require('jest-mock');

/** The worker's one Node environment, made by the first file, and what its process looked like then. */
let worker = null;

/** Jest's own timer id conversions for legacy fake timers (jest-environment-node). */
const timerConfig = {
  idToRef: (id) => ({
    id,
    ref() {
      return this;
    },
    unref() {
      return this;
    },
  }),
  refToId: (timer) => timer?.id,
};

/** Sets an object's own properties back to a snapshot of them, keeping the object itself. */
function restoreProperties(target, snapshot) {
  for (const key of Object.keys(target)) if (!(key in snapshot)) delete target[key];
  Object.assign(target, snapshot);
}

class WorkerContextEnvironment {
  /** Read by code-cache.runtime.js: modules may be shared only between files of one context. */
  static sharesWorkerContext = true;

  constructor(config, context) {
    if (worker === null) {
      const environment = new NodeEnvironment(config, context);
      const { process } = environment.global;
      worker = { environment, env: { ...process.env }, exit: process.exit };
    }
    this.context = worker.environment.getVmContext();
    this.global = worker.environment.global;
    // Jest's runner wraps process.exit for each file: one wrapper, not one per file of the worker.
    this.global.process.exit = worker.exit;
    restoreProperties(this.global.process.env, worker.env);
    this.moduleMocker = new ModuleMocker(this.global);
    const { projectConfig } = config;
    this.fakeTimers = new LegacyFakeTimers({
      config: projectConfig,
      global: this.global,
      moduleMocker: this.moduleMocker,
      timerConfig,
    });
    this.fakeTimersModern = new ModernFakeTimers({ config: projectConfig, global: this.global });
  }

  async setup() {}

  async teardown() {
    this.fakeTimers.dispose();
    this.fakeTimersModern.dispose();
  }

  exportConditions() {
    return worker.environment.exportConditions();
  }

  getVmContext() {
    return this.context;
  }
}

module.exports = WorkerContextEnvironment;
