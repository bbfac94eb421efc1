import { type BatchOutcomes, StatementBatcher } from './statement-batcher';

/** A `send` whose statements the test ends by hand, recording the batches it was given. */
function manualSend() {
  const batches: number[][] = [];
  const ends: Array<(outcomes: BatchOutcomes<string> | Error) => void> = [];
  const send = (inputs: number[]) => {
    batches.push(inputs);
    return new Promise<BatchOutcomes<string>>((resolve, reject) =>
      ends.push((outcomes) => (outcomes instanceof Error ? reject(outcomes) : resolve(outcomes))),
    );
  };
  return { batches, ends, send };
}

const fulfilled = (...values: string[]): BatchOutcomes<string> =>
  values.map((value) => ({ status: 'fulfilled', value }));
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('StatementBatcher', () => {
  it('sends a call at once when nothing is in flight, and the calls that arrive meanwhile together', async () => {
    const { batches, ends, send } = manualSend();
    const batcher = new StatementBatcher(send, { maxBatch: 10, maxInFlight: 1 });
    const first = batcher.call(1);
    expect(batches).toEqual([[1]]);
    const later = [batcher.call(2), batcher.call(3), batcher.call(4)];
    expect(batches).toHaveLength(1);
    ends[0](fulfilled('one'));
    await expect(first).resolves.toBe('one');
    expect(batches).toEqual([[1], [2, 3, 4]]);
    ends[1](fulfilled('two', 'three', 'four'));
    await expect(Promise.all(later)).resolves.toEqual(['two', 'three', 'four']);
  });

  it('splits what waits into batches of at most maxBatch, and keeps maxInFlight statements going', async () => {
    const { batches, ends, send } = manualSend();
    const batcher = new StatementBatcher(send, { maxBatch: 2, maxInFlight: 2 });
    const calls = [1, 2, 3, 4, 5, 6].map((input) => batcher.call(input));
    expect(batches).toEqual([[1], [2]]);
    ends[0](fulfilled('a'));
    await settle();
    expect(batches).toEqual([[1], [2], [3, 4]]);
    ends[1](fulfilled('b'));
    await settle();
    expect(batches).toEqual([[1], [2], [3, 4], [5, 6]]);
    ends[2](fulfilled('c', 'd'));
    ends[3](fulfilled('e', 'f'));
    await expect(Promise.all(calls)).resolves.toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
  });

  it('fails a call alone when its outcome is a rejection, and the whole batch when send throws', async () => {
    const { ends, send } = manualSend();
    const batcher = new StatementBatcher(send, { maxBatch: 10, maxInFlight: 1 });
    const first = batcher.call(1);
    const second = [batcher.call(2), batcher.call(3)];
    ends[0](new Error('connection lost'));
    await expect(first).rejects.toThrow('connection lost');
    await settle();
    ends[1]([
      { status: 'fulfilled', value: 'two' },
      { status: 'rejected', reason: new Error('bad row') },
    ]);
    await expect(second[0]).resolves.toBe('two');
    await expect(second[1]).rejects.toThrow('bad row');
    await settle();
    // A send that answers fewer calls than it was given fails the unanswered ones.
    const alone = batcher.call(4);
    const third = [batcher.call(5), batcher.call(6)];
    ends[2](fulfilled('four'));
    await expect(alone).resolves.toBe('four');
    await settle();
    ends[3](fulfilled('five'));
    await expect(third[0]).resolves.toBe('five');
    await expect(third[1]).rejects.toThrow('no outcome');
  });
});
