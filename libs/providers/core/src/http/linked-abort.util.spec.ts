import { linkAbortController } from './linked-abort.util';

describe('linkAbortController', () => {
  it('aborts with the parent’s reason when the parent aborts', () => {
    const parent = new AbortController();
    const linked = linkAbortController(parent.signal);
    const reason = new Error('deadline');
    parent.abort(reason);
    expect(linked.signal.aborted).toBe(true);
    expect(linked.signal.reason).toBe(reason);
  });

  it('starts aborted under an aborted parent', () => {
    const reason = new Error('gone');
    const linked = linkAbortController(AbortSignal.abort(reason));
    expect(linked.signal.reason).toBe(reason);
  });

  it('aborts on its own without touching the parent', () => {
    const parent = new AbortController();
    const linked = linkAbortController(parent.signal);
    linked.abort();
    expect(linked.signal.aborted).toBe(true);
    expect(parent.signal.aborted).toBe(false);
  });

  it('no longer follows the parent once unlinked', () => {
    const parent = new AbortController();
    const linked = linkAbortController(parent.signal);
    linked.unlink();
    parent.abort();
    expect(linked.signal.aborted).toBe(false);
  });
});
