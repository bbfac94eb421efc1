// Webhook test support, apart from the index: it loads the openai SDK, which most tests do not need.
export * from './webhook-receiver';
export * from './webhook-delivery-worker';
