import type { HoldRefused } from '@gateway/billing';
import { GatewayError } from '@gateway/errors';

/**
 * What a hold that was not taken becomes for the client: 402 when the account cannot cover it (the
 * message ends with what the route's client can lower), 503 when billing cannot be reached. Built once
 * per route family, so that taking a hold (`take(…).then(refusals.accept, onFailure)`) allocates
 * nothing more per request than the failure handler the caller needs for its log line anyway.
 */
export class HoldRefusals {
  constructor(private readonly hint: string) {}

  /** The hold when taken, else throws the 402. A bound function, ready to hand to `then`. */
  readonly accept = <Taken extends { ok: true }>(result: Taken | HoldRefused): Taken => {
    if (!result.ok) {
      throw new GatewayError(
        'insufficient_balance',
        `The account balance is too low for this request. ${this.hint}`,
      );
    }
    return result;
  };

  /** The 503 of a hold that billing could not take (the database is unreachable, for example). */
  unavailable(): GatewayError {
    return new GatewayError('service_unavailable', 'Billing is unavailable right now; retry shortly.');
  }
}

/**
 * The hold, or the client's refusal, for routes off the hot path: `onBillingFailure` logs the cause
 * of a 503 first. (The text routes use a HoldRefusals built once, which allocates less per request.)
 */
export function takenOrRefused<Taken extends { ok: true }>(
  taking: Promise<Taken | HoldRefused>,
  hint: string,
  onBillingFailure: (error: unknown) => void,
): Promise<Taken> {
  const refusals = new HoldRefusals(hint);
  return taking.then(refusals.accept, (error: unknown) => {
    onBillingFailure(error);
    throw refusals.unavailable();
  });
}
