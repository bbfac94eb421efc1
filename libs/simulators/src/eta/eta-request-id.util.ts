import { randomDigits } from '../random-id.util';

/** A request id in the wire's shape: `02`, the time in milliseconds, then random digits. */
export function newEtaRequestId(): string {
  return `02${Date.now()}${randomDigits(18)}`;
}
