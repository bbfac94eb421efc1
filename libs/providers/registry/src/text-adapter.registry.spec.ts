import { compatTextAdapter } from '@gateway/providers-compat';
import { kappaTextAdapter } from '@gateway/providers-kappa';
import { assertRegistryComplete, getTextAdapter, textChannelTypes } from './text-adapter.lookup';
import { indexTextAdapters } from './text-adapter.registry';

describe('text adapter registry', () => {
  it('serves the native dialect on kappa and the OpenAI-style dialect on compat', () => {
    expect(getTextAdapter('kappa')).toBe(kappaTextAdapter);
    expect(getTextAdapter('kappa')?.dialect).toBe('native');
    expect(getTextAdapter('compat')).toBe(compatTextAdapter);
    expect(getTextAdapter('compat')?.dialect).toBe('openai');
  });

  it('has no text adapter for channel types without a text capability', () => {
    expect(getTextAdapter('alpha')).toBeUndefined();
    expect(getTextAdapter('lambda')).toBeUndefined();
  });

  it('lists the text channel types', () => {
    expect(textChannelTypes().sort()).toEqual(['compat', 'kappa']);
  });

  it('passes its own boot check', () => {
    expect(() => assertRegistryComplete()).not.toThrow();
  });

  it('fails the boot check for an unknown channel type', () => {
    expect(() => indexTextAdapters([{ type: 'kapa', adapter: kappaTextAdapter }])).toThrow(
      /'kapa' is not a known channel type/,
    );
  });

  it('fails the boot check for a type registered twice', () => {
    expect(() =>
      indexTextAdapters([
        { type: 'compat', adapter: compatTextAdapter },
        { type: 'compat', adapter: kappaTextAdapter },
      ]),
    ).toThrow(/'compat' is registered twice/);
  });
});
