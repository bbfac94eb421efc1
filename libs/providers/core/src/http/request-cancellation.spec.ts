import { RequestCancellation } from './request-cancellation';

describe('RequestCancellation', () => {
  it('starts unaborted and aborts once, with an AbortError unless given a reason', () => {
    const cancellation = new RequestCancellation();
    expect(cancellation.aborted).toBe(false);
    cancellation.abort();
    expect(cancellation.aborted).toBe(true);
    expect(cancellation.reason).toMatchObject({ name: 'AbortError' });

    const withReason = new RequestCancellation();
    const reason = new Error('client disconnected');
    withReason.abort(reason);
    withReason.abort(new Error('later'));
    expect(withReason.reason).toBe(reason);
  });

  it('calls each abort listener once, however often abort() is called', () => {
    const cancellation = new RequestCancellation();
    const calls: string[] = [];
    cancellation.addEventListener('abort', () => calls.push('once'), { once: true });
    cancellation.addEventListener('abort', () => calls.push('kept'));
    cancellation.abort();
    cancellation.abort();
    expect(calls).toEqual(['once', 'kept']);
  });

  it('does not call a listener removed before the abort, also one added with once', () => {
    const cancellation = new RequestCancellation();
    const calls: string[] = [];
    const onceListener = () => calls.push('once');
    const keptListener = () => calls.push('kept');
    cancellation.addEventListener('abort', onceListener, { once: true });
    cancellation.addEventListener('abort', keptListener);
    cancellation.removeEventListener('abort', onceListener);
    cancellation.removeEventListener('abort', keptListener);
    cancellation.abort();
    expect(calls).toEqual([]);
    expect(cancellation.listenerCount('abort')).toBe(0);
  });

  it('calls a listener added twice twice, and removes one of the two at a time', () => {
    const cancellation = new RequestCancellation();
    let calls = 0;
    const listener = () => (calls += 1);
    cancellation.addEventListener('abort', listener);
    cancellation.addEventListener('abort', listener);
    cancellation.addEventListener('abort', listener);
    cancellation.removeEventListener('abort', listener);
    expect(cancellation.listenerCount('abort')).toBe(2);
    cancellation.abort();
    expect(calls).toBe(2);
    expect(cancellation.listenerCount('abort')).toBe(0);
  });
});
