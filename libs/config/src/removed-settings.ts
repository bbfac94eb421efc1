import type { EnvironmentReader } from './environment-reader';

interface RemovedSetting {
  name: string;
  replacement: string;
  /** What changed, so that the operator can set the replacement to what they meant. */
  change: string;
}

/**
 * Settings the gateway once read and reads no more. One still set would otherwise be ignored without a
 * word while the operator believes it applies, so the process refuses to start and names what to set.
 * Removing a setting adds a line here.
 */
const REMOVED_SETTINGS: readonly RemovedSetting[] = [
  {
    name: 'TASK_EVENTS_POLL_MS',
    replacement: 'TASK_EVENTS_FALLBACK_POLL_MS',
    change:
      'progress streams are woken by an announcement on Redis; the poll only catches lost ones (default 5000)',
  },
];

/** Adds one problem per removed setting that is set (a blank value counts as unset, as everywhere). */
export function refuseRemovedSettings(reader: EnvironmentReader): void {
  for (const { name, replacement, change } of REMOVED_SETTINGS) {
    if (reader.raw(name) !== undefined) {
      reader.addProblem(`${name} is no longer read: set ${replacement} instead (${change})`);
    }
  }
}
