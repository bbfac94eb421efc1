import { parseCircuitEvent } from './circuit-event.parse';
import { parseCircuitScriptResult } from './circuit.scripts';

describe('parseCircuitEvent', () => {
  it('reads openings and closings', () => {
    expect(parseCircuitEvent('{"channelId":"ch_1","openUntil":1732150015123}')).toEqual({
      channelId: 'ch_1',
      openUntil: 1732150015123,
    });
    expect(parseCircuitEvent('{"channelId":"ch_1","closed":true}')).toEqual({
      channelId: 'ch_1',
      closed: true,
    });
  });

  it.each(['not json', 'null', '{"openUntil":5}', '{"channelId":7,"closed":true}', '{"channelId":"ch_1"}'])(
    'ignores the malformed message %s',
    (message) => {
      expect(parseCircuitEvent(message)).toBeUndefined();
    },
  );
});

describe('parseCircuitScriptResult', () => {
  it('reads the outcome and the end of the cool-down', () => {
    expect(parseCircuitScriptResult([1, 1732150015123])).toEqual({ outcome: 1, openUntil: 1732150015123 });
  });

  it.each([[null], [[3, 0]], [[1]], ['OK']])('refuses the reply %p', (reply) => {
    expect(() => parseCircuitScriptResult(reply)).toThrow('unexpected circuit script reply');
  });
});
