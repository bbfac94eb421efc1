import { sendAtTurnEnd } from './turn-end-sends';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('sendAtTurnEnd', () => {
  it("runs the sends queued in one turn together, in order, once the turn's microtasks are done", async () => {
    const sent: string[] = [];
    sendAtTurnEnd(() => sent.push('first'));
    await Promise.resolve();
    sendAtTurnEnd(() => sent.push('second'));
    await Promise.resolve();
    expect(sent).toEqual([]);
    await nextTurn();
    expect(sent).toEqual(['first', 'second']);
  });

  it('runs a send queued by a send in the next turn, and one queued later in a turn of its own', async () => {
    const sent: string[] = [];
    sendAtTurnEnd(() => {
      sent.push('first');
      sendAtTurnEnd(() => sent.push('queued by the first'));
    });
    await nextTurn();
    expect(sent).toEqual(['first']);
    await nextTurn();
    expect(sent).toEqual(['first', 'queued by the first']);
    sendAtTurnEnd(() => sent.push('later'));
    await nextTurn();
    expect(sent).toEqual(['first', 'queued by the first', 'later']);
  });
});
