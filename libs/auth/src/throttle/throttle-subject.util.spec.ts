import { throttleSubjectOf } from './throttle-subject.util';

describe('throttleSubjectOf', () => {
  it('counts an IPv4 address, mapped or not, as itself', () => {
    expect(throttleSubjectOf('203.0.113.7')).toBe('203.0.113.7');
    expect(throttleSubjectOf('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(throttleSubjectOf('::FFFF:203.0.113.7')).toBe('203.0.113.7');
  });

  it('counts every address of one IPv6 /64 as the same subject, however it is written', () => {
    const subjects = [
      '2001:db8:0:1::1',
      '2001:DB8:0000:0001:ffff:ffff:ffff:ffff',
      '2001:db8:0:1:1:2:3:4%eth0',
      '2001:db8:0:1:0:0:0.0.0.1',
    ].map(throttleSubjectOf);

    expect(new Set(subjects)).toEqual(new Set(['2001:db8:0:1::/64']));
  });

  it('keeps neighbouring IPv6 networks apart', () => {
    expect(throttleSubjectOf('2001:db8:0:2::1')).toBe('2001:db8:0:2::/64');
    expect(throttleSubjectOf('::1')).toBe('0:0:0:0::/64');
    expect(throttleSubjectOf('fe80::1')).toBe('fe80:0:0:0::/64');
  });
});
