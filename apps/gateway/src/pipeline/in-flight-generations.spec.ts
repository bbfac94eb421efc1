import { RequestCancellation } from '@gateway/providers-core';
import { endedByShutdown, InFlightGenerations, ShutdownDeadlineReached } from './in-flight-generations';

/** A generation that runs until its cancellation, then takes one more turn to answer and settle. */
function generationUntilCancelled(cancellation: RequestCancellation, settled: string[], name: string) {
  return () =>
    new Promise<void>((resolve) =>
      cancellation.addEventListener('abort', () =>
        setImmediate(() => {
          settled.push(`${name}: ${endedByShutdown(cancellation) ? 'shutdown' : 'other'}`);
          resolve();
        }),
      ),
    );
}

describe('InFlightGenerations', () => {
  it('ends every running generation with the shutdown reason and resolves once each has finished', async () => {
    const generations = new InFlightGenerations();
    const settled: string[] = [];
    const first = new RequestCancellation();
    const second = new RequestCancellation();
    const running = [
      generations.run(first, generationUntilCancelled(first, settled, 'first')),
      generations.run(second, generationUntilCancelled(second, settled, 'second')),
    ];
    expect(generations.size).toBe(2);

    await generations.endAll();

    expect(settled.sort()).toEqual(['first: shutdown', 'second: shutdown']);
    expect(first.reason).toBeInstanceOf(ShutdownDeadlineReached);
    await Promise.all(running);
    expect(generations.size).toBe(0);
  });

  it('cancels a generation that starts after the deadline at once', async () => {
    const generations = new InFlightGenerations();
    await generations.endAll();
    const late = new RequestCancellation();
    let sawCancellation = false;

    await generations.run(late, async () => {
      sawCancellation = endedByShutdown(late);
    });

    expect(sawCancellation).toBe(true);
  });

  it('does not take a client disconnect for the shutdown deadline', () => {
    const cancellation = new RequestCancellation();
    cancellation.abort(new Error('client disconnected'));
    expect(endedByShutdown(cancellation)).toBe(false);
  });
});
