// The webhook endpoints of the push issue. The console is built to run against gateways where that
// issue has not landed: the pages treat a 404 on the list as "not available", and read list answers
// whether they come as a bare array or as a page ({ items } / { data }).
import { adminRequest } from './admin-client';
import type { WebhookDelivery, WebhookEndpoint } from './admin.types';

const id = (value: string) => encodeURIComponent(value);

function listOf<T>(answer: unknown): T[] {
  if (Array.isArray(answer)) return answer as T[];
  if (answer !== null && typeof answer === 'object') {
    const page = answer as { items?: unknown; data?: unknown };
    if (Array.isArray(page.items)) return page.items as T[];
    if (Array.isArray(page.data)) return page.data as T[];
  }
  return [];
}

export interface WebhookInput {
  url: string;
  events: string[];
  accountId?: string;
  description?: string;
}

export const webhooksApi = {
  list: async () => listOf<WebhookEndpoint>(await adminRequest<unknown>('GET', '/admin/webhooks')),
  create: (body: WebhookInput) => adminRequest<WebhookEndpoint>('POST', '/admin/webhooks', { body }),
  setStatus: (endpointId: string, status: 'enabled' | 'disabled') =>
    adminRequest<WebhookEndpoint>('PATCH', `/admin/webhooks/${id(endpointId)}`, { body: { status } }),
  remove: (endpointId: string) => adminRequest<void>('DELETE', `/admin/webhooks/${id(endpointId)}`),
  rotate: (endpointId: string) =>
    adminRequest<WebhookEndpoint>('POST', `/admin/webhooks/${id(endpointId)}/rotate-secret`),
  deliveries: async (endpointId: string) =>
    listOf<WebhookDelivery>(
      await adminRequest<unknown>('GET', `/admin/webhooks/${id(endpointId)}/deliveries`),
    ),
  redeliver: (endpointId: string, deliveryId: string) =>
    adminRequest<unknown>('POST', `/admin/webhooks/${id(endpointId)}/deliveries/${id(deliveryId)}/redeliver`),
};
