/**
 * A client of the beta Action API written from its wire description alone (upstreams.md §4.3–§4.5),
 * as a customer of the family would write it: `POST {base}/bt?Action=…&Version=2022-08-31` with a
 * JSON body, the gateway key as a Bearer token, and the `{code, status, message, request_id,
 * time_elapsed, data}` envelope back. It knows nothing of the gateway's code.
 */
export const BETA_VERSION = '2022-08-31';
export const SUBMIT_ACTION = 'CVSync2AsyncSubmitTask';
export const GET_RESULT_ACTION = 'CVSync2AsyncGetResult';
const SUCCESS = 10000;
/** Statuses of a task still on its way (§4.5). */
const PENDING = new Set(['in_queue', 'generating']);
const QUERY_PAUSE_MS = 50;

export interface BetaEnvelope {
  code?: number;
  status?: number;
  message?: string;
  request_id?: string;
  time_elapsed?: string;
  data?: Record<string, unknown> | null;
  ResponseMetadata?: {
    RequestId: string;
    Action: string;
    Version: string;
    Error: { Code: string; Message: string };
  };
}

export interface BetaCall {
  httpStatus: number;
  envelope: BetaEnvelope;
}

export class BetaActionClient {
  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string,
  ) {}

  /** One call; `query` replaces the Action/Version pair when a test needs a malformed one. */
  async call(
    action: string,
    body: unknown,
    query = `Action=${action}&Version=${BETA_VERSION}`,
    headers: Record<string, string> = {},
  ): Promise<BetaCall> {
    const response = await fetch(`${this.baseUrl}/bt?${query}`, {
      method: 'POST',
      headers: { ...headers, authorization: `Bearer ${this.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { httpStatus: response.status, envelope: (await response.json()) as BetaEnvelope };
  }

  /** Submits a task; its id, or an error naming the refusal. */
  async submit(body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<string> {
    const { httpStatus, envelope } = await this.call(SUBMIT_ACTION, body, undefined, headers);
    const taskId = envelope.data?.['task_id'];
    if (envelope.code !== SUCCESS || typeof taskId !== 'string') {
      throw new Error(`submission refused: HTTP ${httpStatus} ${JSON.stringify(envelope)}`);
    }
    return taskId;
  }

  getResult(reqKey: string, taskId: string, options: { returnUrl?: boolean } = {}): Promise<BetaCall> {
    const reqJson = JSON.stringify({ return_url: options.returnUrl ?? false });
    return this.call(GET_RESULT_ACTION, { req_key: reqKey, task_id: taskId, req_json: reqJson });
  }

  /**
   * Queries until the task leaves `in_queue`/`generating`; the last answer, and every status seen on
   * the way. A client's loop, not a test's clock: it gives up after `maxQueries`.
   */
  async waitForResult(
    reqKey: string,
    taskId: string,
    options: { returnUrl?: boolean; maxQueries?: number } = {},
  ): Promise<{ last: BetaCall; statuses: string[] }> {
    const statuses: string[] = [];
    for (let query = 0; query < (options.maxQueries ?? 100); query += 1) {
      const answer = await this.getResult(reqKey, taskId, options);
      const status = answer.envelope.data?.['status'];
      if (typeof status === 'string') statuses.push(status);
      if (answer.envelope.code !== SUCCESS || typeof status !== 'string' || !PENDING.has(status)) {
        return { last: answer, statuses };
      }
      await new Promise((resolve) => setTimeout(resolve, QUERY_PAUSE_MS));
    }
    throw new Error(`task ${taskId} still pending after ${options.maxQueries ?? 100} queries`);
  }
}
