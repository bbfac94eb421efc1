export { createSimulatorServer, startSimulator } from './server';
export type { RunningSimulator } from './server';
export { DEFAULT_COMPAT_KEY, DEFAULT_KAPPA_KEY } from './simulator-options';
export type { SimulatorOptions, StartSimulatorOptions } from './simulator-options';
export { SIM_ERROR_CLASSES, parseDirectives } from './directives';
export type { Directives, SimErrorClass } from './directives';
export type { SimulatorStatsSnapshot } from './simulator-stats';
export type { JournalEntry } from './request-journal';
