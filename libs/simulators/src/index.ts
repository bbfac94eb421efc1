export { createSimulatorServer, startSimulator } from './server';
export type { RunningSimulator } from './server';
export {
  DEFAULT_ALPHA_KEY,
  DEFAULT_BETA_KEY,
  DEFAULT_BETA_RELAY_KEY,
  DEFAULT_COMPAT_KEY,
  DEFAULT_ETA_KEY,
  DEFAULT_KAPPA_KEY,
  DEFAULT_LAMBDA_KEY,
  DEFAULT_MU_KEY,
  DEFAULT_OMEGA_KEY,
  isBetaKey,
} from './simulator-options';
export type { SimulatorOptions, StartSimulatorOptions } from './simulator-options';
export { DEFAULT_GAMMA_KEY, DEFAULT_GAMMA_OFFICIAL_KEY, isGammaKey } from './gamma/gamma-keys';
export { SIM_ERROR_CLASSES, parseDirectives } from './directives';
export type { Directives, SimErrorClass } from './directives';
export type { SimulatorStatsSnapshot } from './simulator-stats';
export type { JournalEntry, JournalForm } from './request-journal';
export { VIDEO_RESULT_PLACEMENTS, VIDEO_STATUS_STATES } from './directives';
export type { VideoResultPlacement, VideoStatusState } from './directives';
export type { IdempotentCreateCount, VideoCreateSummary } from './compat/video/compat-video.store';
