import type { VideoPlan } from './video-adapter';

/** A request a family's rules refuse: the field at fault and what it allows, for the client's 400. */
export type VideoRefusal = Extract<VideoPlan, { ok: false }>;

/** What one rule made of a field: the value to plan with, or the refusal. */
export type VideoRuled<T> = { ok: true; value: T } | VideoRefusal;

export function videoRefusal(param: string, message: string): VideoRefusal {
  return { ok: false, param, message };
}
