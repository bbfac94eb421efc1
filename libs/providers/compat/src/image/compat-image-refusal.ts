/** A request the family's rules refuse: the gateway's 400, naming the field and what it allows. */
export interface CompatImageRefusal {
  ok: false;
  param: string;
  message: string;
  /** The family has no such operation (ImagePlan's `unsupported`). */
  unsupported?: true;
}

export const refusal = (param: string, message: string): CompatImageRefusal => ({
  ok: false,
  param,
  message,
});
