import { SafeFetchError, type SafeFetcher } from '@gateway/providers-core';
import type { AttemptOutcome } from './webhook-delivery.store';

/** One attempt's answer: its status when one came, else why none did. */
export type SendResult = AttemptOutcome & { delivered: boolean };

/** Longest error text kept on an attempt. */
const MAX_ERROR_LENGTH = 500;

/**
 * POSTs one signed body through the SSRF-safe fetcher: the endpoint's address is checked again at
 * each attempt (a DNS answer may have changed since it was registered), the connection goes to the
 * checked address, redirects are not followed, and the fetcher's time limit (WEBHOOK_TIMEOUT_MS)
 * covers the whole answer. Any 2xx delivers; anything else (an answer, a timeout, a refused address
 * or connection) is a failed attempt.
 */
export class WebhookSender {
  constructor(
    private readonly fetcher: SafeFetcher,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  async send(url: string, body: string, headers: Readonly<Record<string, string>>): Promise<SendResult> {
    const startedAt = this.clock();
    const latency = (): number => Math.max(0, Math.round(this.clock() - startedAt));
    try {
      const response = await this.fetcher.fetch(url, {
        post: { body, headers: { 'content-type': 'application/json', ...headers } },
      });
      await drain(response.body);
      const delivered = response.status >= 200 && response.status < 300;
      return {
        delivered,
        statusCode: response.status,
        latencyMs: latency(),
        error: delivered ? null : errorOfStatus(response.status),
      };
    } catch (error) {
      return { delivered: false, statusCode: null, latencyMs: latency(), error: describe(error) };
    }
  }
}

/** The answer's body is not read, only consumed so the connection ends cleanly; its errors do not matter. */
async function drain(body: AsyncIterable<Buffer>): Promise<void> {
  try {
    for await (const chunk of body) void chunk;
  } catch {
    // A body cut short or too long changes nothing: the status has answered.
  }
}

function errorOfStatus(status: number): string {
  if (status >= 300 && status < 400) return `answered ${status}; redirects are not followed`;
  return `answered ${status}`;
}

function describe(error: unknown): string {
  const text =
    error instanceof SafeFetchError
      ? `${error.code}: ${error.message}`
      : error instanceof Error
        ? error.message
        : String(error);
  return text.slice(0, MAX_ERROR_LENGTH);
}
