import { parseSimKeys, readSimEnvironment } from './sim-environment';

describe('readSimEnvironment', () => {
  it('defaults to 127.0.0.1:4010 with the simulator default keys and no logging', () => {
    expect(readSimEnvironment({})).toEqual({ port: 4010, host: '127.0.0.1', keys: undefined, logger: false });
  });

  it('reads PORT, HOST and SIM_LOG, and refuses a malformed port', () => {
    expect(readSimEnvironment({ PORT: '5001', HOST: '0.0.0.0', SIM_LOG: '1' })).toMatchObject({
      port: 5001,
      host: '0.0.0.0',
      logger: true,
    });
    expect(() => readSimEnvironment({ PORT: 'eighty' })).toThrow('PORT');
  });
});

describe('parseSimKeys', () => {
  it('assigns wire:key entries to their wire and bare keys to every wire whose key form they fit', () => {
    expect(parseSimKeys('kappa:k1, kappa:k2,shared')).toEqual({
      kappa: ['k1', 'k2', 'shared'],
      compat: ['shared'],
      eta: ['shared'],
      beta: undefined,
      mu: ['shared'],
      omega: ['shared'],
      alpha: ['shared'],
      lambda: ['shared'],
    });
    expect(parseSimKeys('sk-relay,beta:ak|sk')).toEqual({
      kappa: ['sk-relay'],
      compat: ['sk-relay'],
      eta: ['sk-relay'],
      beta: ['sk-relay', 'ak|sk'],
      mu: ['sk-relay'],
      omega: ['sk-relay'],
      alpha: ['sk-relay'],
      lambda: ['sk-relay'],
    });
  });

  it('assigns mu and omega keys to their wires', () => {
    expect(parseSimKeys('mu:m1,omega:o1')).toEqual({ mu: ['m1'], omega: ['o1'] });
  });

  it('assigns alpha and lambda keys to their wires', () => {
    expect(parseSimKeys('alpha:a1')).toEqual({ alpha: ['a1'] });
    expect(parseSimKeys('lambda:l1')).toEqual({ lambda: ['l1'] });
  });

  it('gives gamma only keys of its SubAppId|SecretId|SecretKey[|Region] form', () => {
    expect(parseSimKeys('gamma:15|sid|sk|north-2')).toEqual({ gamma: ['15|sid|sk|north-2'] });
    expect(parseSimKeys('15|sid|sk,plain')).toMatchObject({
      gamma: ['15|sid|sk'],
      kappa: ['15|sid|sk', 'plain'],
    });
  });

  it('leaves a wire without entries on its default', () => {
    expect(parseSimKeys('compat:c1')).toEqual({
      kappa: undefined,
      compat: ['c1'],
      eta: undefined,
      beta: undefined,
    });
  });

  it('accepts a JSON object and rejects a malformed one', () => {
    expect(parseSimKeys('{"kappa":["k1"],"eta":["e1"]}')).toEqual({
      kappa: ['k1'],
      compat: undefined,
      eta: ['e1'],
      beta: undefined,
    });
    expect(() => parseSimKeys('{"compat":"c1"}')).toThrow('SIM_KEYS');
  });
});
