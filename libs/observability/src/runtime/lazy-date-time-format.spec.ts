import { loadWithLazyDateTimeFormat } from './lazy-date-time-format';

const RealDateTimeFormat = Intl.DateTimeFormat;
const UTC_DATE_TIME: Intl.DateTimeFormatOptions = {
  timeZone: 'UTC',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
};
const INSTANT = Date.UTC(2026, 10, 21, 17, 5);

describe('loadWithLazyDateTimeFormat', () => {
  it('returns what the load returned and puts the real constructor back', () => {
    expect(loadWithLazyDateTimeFormat(() => 42)).toBe(42);
    expect(Intl.DateTimeFormat).toBe(RealDateTimeFormat);
  });

  it('puts the real constructor back when the load throws', () => {
    expect(() =>
      loadWithLazyDateTimeFormat(() => {
        throw new Error('import failed');
      }),
    ).toThrow('import failed');
    expect(Intl.DateTimeFormat).toBe(RealDateTimeFormat);
  });

  it('hands out formatters that format, resolve and split exactly like real ones', () => {
    const lazy = loadWithLazyDateTimeFormat(() => new Intl.DateTimeFormat('en-US', UTC_DATE_TIME));
    const real = new RealDateTimeFormat('en-US', UTC_DATE_TIME);

    expect(lazy).toBeInstanceOf(RealDateTimeFormat);
    expect(lazy.format(INSTANT)).toBe('11/21/2026, 05:05 PM');
    expect(lazy.format(INSTANT)).toBe(real.format(INSTANT));
    expect(lazy.formatToParts(INSTANT)).toEqual(real.formatToParts(INSTANT));
    expect(lazy.resolvedOptions()).toEqual(real.resolvedOptions());
    expect([INSTANT].map(lazy.format)).toEqual(['11/21/2026, 05:05 PM']);
  });

  it('builds the real formatter only on first use: a bad time zone fails there, not at construction', () => {
    const lazy = loadWithLazyDateTimeFormat(
      () => new Intl.DateTimeFormat('en-US', { timeZone: 'Nowhere/Atlantis' }),
    );
    expect(() => new RealDateTimeFormat('en-US', { timeZone: 'Nowhere/Atlantis' })).toThrow(RangeError);
    expect(() => lazy.format(INSTANT)).toThrow(RangeError);
  });

  it("keeps Nest's console logger printing timestamps when @nestjs/common is loaded through it", () => {
    let common: typeof import('@nestjs/common') | undefined;
    jest.isolateModules(() => {
      common = loadWithLazyDateTimeFormat(() =>
        jest.requireActual<typeof import('@nestjs/common')>('@nestjs/common'),
      );
    });
    const written: string[] = [];
    const write = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    try {
      new common!.ConsoleLogger('Lazy', { colors: false }).log('hello');
    } finally {
      write.mockRestore();
    }
    const year = String(new Date().getFullYear());
    expect(written.join('')).toMatch(new RegExp(`${year}.*LOG \\[Lazy\\] hello`));
  });
});
