export { createSimulatorServer, startSimulator } from './server';
export type { RunningSimulator } from './server';
export {
  DEFAULT_BETA_KEY,
  DEFAULT_BETA_RELAY_KEY,
  DEFAULT_COMPAT_KEY,
  DEFAULT_ETA_KEY,
  DEFAULT_KAPPA_KEY,
  isBetaKey,
} from './simulator-options';
export type { SimulatorOptions, StartSimulatorOptions } from './simulator-options';
export { SIM_ERROR_CLASSES, parseDirectives } from './directives';
export type { Directives, SimErrorClass } from './directives';
export type { SimulatorStatsSnapshot } from './simulator-stats';
export type { JournalEntry, JournalForm } from './request-journal';
