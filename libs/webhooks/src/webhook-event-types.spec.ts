import { assetEventTypeOf, isWebhookEventType, taskEventTypeOf } from './webhook-event-types';

describe('webhook event types', () => {
  it.each([
    ['video', 'completed', 'video.completed'],
    ['video', 'failed', 'video.failed'],
    ['video', 'cancelled', 'video.cancelled'],
    ['music', 'completed', 'music.completed'],
    ['music', 'cancelled', 'music.failed'],
    ['image', 'failed', 'image.failed'],
    ['image', 'cancelled', 'image.failed'],
  ])('a %s task that is %s fires %s', (kind, status, type) => {
    expect(taskEventTypeOf(kind, status)).toBe(type);
  });

  it.each([
    ['video', 'processing'],
    ['asset', 'completed'],
    ['text', 'completed'],
    ['__proto__', 'completed'],
    ['video', 'toString'],
  ])('a %s task that is %s fires nothing', (kind, status) => {
    expect(taskEventTypeOf(kind, status)).toBeUndefined();
  });

  it('names the asset events, and knows its own list only', () => {
    expect(assetEventTypeOf('Active')).toBe('asset.active');
    expect(assetEventTypeOf('Failed')).toBe('asset.failed');
    expect(isWebhookEventType('asset.active')).toBe(true);
    expect(isWebhookEventType('video.started')).toBe(false);
    expect(isWebhookEventType(7)).toBe(false);
  });
});
