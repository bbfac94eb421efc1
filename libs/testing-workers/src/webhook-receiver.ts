import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { Webhook } from 'standardwebhooks';

/** One request as the receiver saw it, and whether each verifier accepted it. */
export interface ReceivedWebhook {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  event: { id: string; object: string; type: string; created_at: number; data: Record<string, unknown> };
  verifiedByStandardWebhooks: boolean;
  verifiedByOpenAi: boolean;
}

/** How the receiver answers its nth request (from 0): a status, or `hang` (never answers). */
export type ReceiverScript = (index: number) => number | 'hang';

const openai = new OpenAI({ apiKey: 'unused-by-webhooks' });

/**
 * A webhook endpoint on loopback that verifies every delivery with the openai SDK's
 * `webhooks.unwrap` and with `standardwebhooks`' `Webhook.verify` under the secrets it is told, and
 * answers as its script says.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  /** Secrets a delivery may be signed with (after a rotation, either). */
  secrets: string[] = [];
  private readonly held: ServerResponse[] = [];
  private count = 0;

  private constructor(
    private readonly server: Server,
    private script: ReceiverScript,
  ) {}

  static async start(script: ReceiverScript = () => 200): Promise<WebhookReceiver> {
    const server = createServer();
    const receiver = new WebhookReceiver(server, script);
    server.on('request', (request, response) => void receiver.handle(request, response));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/hook`;
  }

  answerWith(script: ReceiverScript): void {
    this.script = script;
  }

  /** Answers every request held open so far. */
  release(status = 200): void {
    for (const response of this.held.splice(0)) response.writeHead(status).end();
  }

  async close(): Promise<void> {
    this.release(503);
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const headers = {
      'webhook-id': String(request.headers['webhook-id']),
      'webhook-timestamp': String(request.headers['webhook-timestamp']),
      'webhook-signature': String(request.headers['webhook-signature']),
    };
    this.received.push({
      id: headers['webhook-id'],
      timestamp: headers['webhook-timestamp'],
      signature: headers['webhook-signature'],
      body,
      event: JSON.parse(body) as ReceivedWebhook['event'],
      verifiedByStandardWebhooks: this.secrets.some((secret) =>
        verifies(() => new Webhook(secret).verify(body, headers)),
      ),
      verifiedByOpenAi: await someAsync(this.secrets, (secret) =>
        openai.webhooks.unwrap(body, headers, secret).then(
          () => true,
          () => false,
        ),
      ),
    });
    const answer = this.script(this.count++);
    if (answer === 'hang') this.held.push(response);
    else response.writeHead(answer).end();
  }
}

function verifies(verify: () => unknown): boolean {
  try {
    verify();
    return true;
  } catch {
    return false;
  }
}

async function someAsync<T>(items: readonly T[], test: (item: T) => Promise<boolean>): Promise<boolean> {
  for (const item of items) if (await test(item)) return true;
  return false;
}
