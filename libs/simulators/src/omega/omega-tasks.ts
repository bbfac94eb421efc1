import { randomUUID } from 'node:crypto';
import { ScriptedTaskStore } from '../scripted-task.store';

/** What an omega task remembers of its submission. */
export interface OmegaTaskFields {
  prompt: string;
  duration: number;
  tier: 720 | 1080;
  /** When the upstream "scheduled" it: its first answer past PENDING. */
  scheduledAtMs?: number;
  /** Its result link, made at the first SUCCEEDED answer and kept (it lives 24 hours). */
  videoUrl?: string;
}

/** Task ids are queryable for 24 hours (§8.4); after that they are UNKNOWN. */
export const OMEGA_TASK_RETENTION_MS = 24 * 3600 * 1000;

export function newOmegaTaskStore(): ScriptedTaskStore<OmegaTaskFields> {
  return new ScriptedTaskStore<OmegaTaskFields>({ newId: randomUUID, retentionMs: OMEGA_TASK_RETENTION_MS });
}
