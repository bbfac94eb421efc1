export const DEFAULT_KAPPA_KEY = 'sim-kappa-key';
export const DEFAULT_COMPAT_KEY = 'sim-compat-key';

export interface SimulatorOptions {
  /** Accepted credentials per wire; a wire left out keeps its default key. */
  keys?: { kappa?: string[]; compat?: string[] };
  /** Fastify request logging (off by default: the simulator is also the benchmark's direct baseline). */
  logger?: boolean;
}

export interface StartSimulatorOptions extends SimulatorOptions {
  /** Defaults to 0 (any free port). */
  port?: number;
  /** Defaults to 127.0.0.1. */
  host?: string;
}

/** Options resolved once at creation, in the shape the routes read per request. */
export interface SimulatorSettings {
  kappaKeys: ReadonlySet<string>;
  compatKeys: ReadonlySet<string>;
}

export function resolveSimulatorSettings(options: SimulatorOptions): SimulatorSettings {
  return {
    kappaKeys: new Set(options.keys?.kappa ?? [DEFAULT_KAPPA_KEY]),
    compatKeys: new Set(options.keys?.compat ?? [DEFAULT_COMPAT_KEY]),
  };
}
