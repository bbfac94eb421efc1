import type { VideoPlan } from '@gateway/providers-core';

/** A request the alpha rules refuse: the field at fault and the rule, in the client's dialect (400, or 413). */
export type AlphaRefusal = Extract<VideoPlan, { ok: false }>;

export function alphaRefusal(param: string, message: string, httpStatus?: 413): AlphaRefusal {
  return httpStatus ? { ok: false, param, message, httpStatus } : { ok: false, param, message };
}

/** A value a rule accepted, or why not. */
export type AlphaRuled<T> = { ok: true; value: T } | AlphaRefusal;
