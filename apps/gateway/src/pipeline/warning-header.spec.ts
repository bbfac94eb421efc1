import { warningHeader } from './warning-header';

const headerOf = (warnings: string[]) => warningHeader(warnings)['x-gateway-warning'];

describe('warningHeader', () => {
  it('sends nothing without warnings, and the warnings joined otherwise', () => {
    expect(warningHeader([])).toEqual({});
    expect(headerOf(['seed is ignored: m has no such option', 'size fell back to 1K'])).toBe(
      'seed is ignored: m has no such option | size fell back to 1K',
    );
  });

  it('replaces what a header cannot carry', () => {
    expect(headerOf(['prompt é\r\nx-evil: 1'])).toBe('prompt ???x-evil: 1');
  });

  it('cuts a long client field name at 64 characters with an ellipsis', () => {
    const header = headerOf([`${'x'.repeat(20_000)} is ignored: delta-2 has no such option`]);
    expect(header).toBe(`${'x'.repeat(61)}... is ignored: delta-2 has no such option`);
  });

  it('stays within 1 KiB, saying how many warnings it leaves out', () => {
    const warnings = Array.from(
      { length: 300 },
      (_, index) => `extra_${index} is ignored: m has no such option`,
    );
    const header = headerOf(warnings);
    expect(header.length).toBeLessThanOrEqual(1024);
    const shown = header.split(' | ').filter((part) => part.startsWith('extra_')).length;
    expect(header.endsWith(` | and ${300 - shown} more`)).toBe(true);
    expect(shown).toBeGreaterThan(10);
  });

  it('cuts a first warning that alone is over the limit rather than leave it out', () => {
    const keywords = Array.from({ length: 2000 }, (_, index) => `k${index}`).join(', ');
    const alone = headerOf([`response_format: dropped schema keywords: ${keywords}`]);
    expect(alone).toHaveLength(1024);
    expect(alone).toMatch(/^response_format: dropped schema keywords: k0, k1, .*\.\.\.$/);
    const withMore = headerOf([`dropped: ${keywords}`, 'second', 'third']);
    expect(withMore.length).toBeLessThanOrEqual(1024);
    expect(withMore).toMatch(/\.\.\. \| and 2 more$/);
  });
});
