import type { ResolvedKey } from '@gateway/auth';

/**
 * The seam between the generation pipeline and the governance of issue 32 part B (per-key and
 * per-account limits, budgets, IP allow-lists). The pipeline calls `admit` once per inference request,
 * after the request is planned and priced and before any hold; every path after a successful `admit`
 * ends in exactly one `ticket.settle`. A refusal is thrown as the gateway's client error (429
 * `rate_limit_exceeded`, 402 `budget_exceeded`, 403 `ip_not_allowed`) and takes no hold.
 */
export interface RequestGovernance {
  /** The ticket at once when nothing needs a round trip (the pipeline then takes no microtask hop). */
  admit(request: GovernedRequest): GovernanceTicket | Promise<GovernanceTicket>;
}

export interface GovernedRequest {
  readonly key: ResolvedKey;
  /** The client's address as TRUST_PROXY decides it (Fastify's request.ip). */
  readonly clientIp: string;
  readonly requestId: string;
  readonly route: string;
  readonly model: string;
  /** Text routes: the token estimate at admission (prompt + most output), corrected at settlement. */
  readonly estimatedTokens?: number;
  /** The most this request may cost: the amount the pipeline is about to hold. */
  readonly holdMicros: bigint;
  /** Set when the request creates a task that outlives it (video, music, /bt, theta). */
  readonly createsTask: boolean;
}

export interface GovernanceTicket {
  /** Headers every answer of this request carries (x-ratelimit-*), success and refusal alike. */
  readonly headers: Readonly<Record<string, string>>;
  /**
   * Called exactly once when the request ends: releases its concurrency slot, corrects the token count
   * with the reported usage and its budget reservation with the captured cost. For a request that
   * created a task, `taskId` names it and the task's own settlement settles its budget share later.
   */
  settle(outcome: GovernedOutcome): void;
}

export interface GovernedOutcome {
  readonly tokens?: number;
  readonly costMicros: bigint;
  readonly taskId?: string;
}

/** Injection token of the RequestGovernance the pipeline uses. */
export const REQUEST_GOVERNANCE = Symbol('REQUEST_GOVERNANCE');

const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});
const UNGOVERNED_TICKET: GovernanceTicket = { headers: NO_HEADERS, settle: () => undefined };

/** Governance for keys and accounts without limits: admits everything, costs nothing (no await). */
export const UNGOVERNED: RequestGovernance = {
  admit: () => UNGOVERNED_TICKET,
};
