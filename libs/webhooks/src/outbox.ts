// The outbox writer alone, for the task platform (libs/tasks): the writers of terminal transitions
// need neither the renderers nor the delivery worker, nor what those load.
export * from './webhook-event-types';
export * from './webhook-outbox';
export { newWebhookEventId } from './webhook-ids.util';
