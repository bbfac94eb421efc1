import { createHmac } from 'node:crypto';
import OpenAI from 'openai';
import { Webhook } from 'standardwebhooks';
import { newWebhookSecret } from './webhook-secret.util';
import { signWebhook } from './webhook-signature.util';

const BODY = JSON.stringify({
  id: 'evt_1',
  object: 'event',
  type: 'video.completed',
  data: { id: 'video_1' },
});

describe('signWebhook', () => {
  it('is the HMAC-SHA256 of "id.timestamp.body" under the key bytes after whsec_', () => {
    const secret = newWebhookSecret();
    const sentAt = new Date();
    const headers = signWebhook('msg_1', sentAt, BODY, [secret]);
    const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
    const expected = createHmac('sha256', key)
      .update(`msg_1.${headers['webhook-timestamp']}.${BODY}`)
      .digest('base64');
    expect(headers['webhook-signature']).toBe(`v1,${expected}`);
    expect(headers['webhook-timestamp']).toBe(String(Math.floor(sentAt.getTime() / 1000)));
  });

  it('verifies with standardwebhooks and with the openai SDK, each of two secrets alone', async () => {
    const [current, previous] = [newWebhookSecret(), newWebhookSecret()];
    const headers = signWebhook('msg_2', new Date(), BODY, [current, previous]);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    const client = new OpenAI({ apiKey: 'unused' });
    for (const secret of [current, previous]) {
      expect(new Webhook(secret).verify(BODY, { ...headers })).toEqual(JSON.parse(BODY));
      await expect(client.webhooks.unwrap(BODY, { ...headers }, secret)).resolves.toEqual(JSON.parse(BODY));
    }
    await expect(client.webhooks.unwrap(BODY, { ...headers }, newWebhookSecret())).rejects.toThrow();
    expect(() => new Webhook(current).verify(`${BODY} `, { ...headers })).toThrow();
  });
});
