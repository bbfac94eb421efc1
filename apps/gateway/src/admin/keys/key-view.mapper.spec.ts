import type { ApiKey } from '@gateway/db';
import { KEY_VIEW_COLUMNS, toCreatedKeyView, toKeyView } from './key-view.mapper';

const row: Omit<ApiKey, 'hash'> = {
  id: 'key_0123456789abcdef01234567',
  accountId: 'acct_1',
  name: 'ci',
  prefix: 'gk_AbCdEfGh',
  status: 'disabled',
  expiresAt: null,
  allowedModels: ['kappa-2.0-flash'],
  limits: { requestsPerMinute: 60, bogus: 3 },
  budgetMicros: 5_000_000n,
  budgetPeriod: 'day',
  allowedIps: ['203.0.113.0/24'],
  createdAt: new Date('2026-01-02T03:04:05.000Z'),
  updatedAt: new Date('2026-01-02T03:04:06.000Z'),
};

describe('key views', () => {
  it('never selects the hash column', () => {
    expect(Object.keys(KEY_VIEW_COLUMNS)).not.toContain('hash');
  });

  it('shows a key by its prefix, with a null expiry kept null', () => {
    expect(toKeyView(row)).toEqual({
      id: row.id,
      accountId: 'acct_1',
      name: 'ci',
      prefix: 'gk_AbCdEfGh',
      status: 'disabled',
      expiresAt: null,
      allowedModels: ['kappa-2.0-flash'],
      limits: { requestsPerMinute: 60 },
      budget: { amountMicros: '5000000', period: 'day' },
      allowedIps: ['203.0.113.0/24'],
      createdAt: '2026-01-02T03:04:05.000Z',
      updatedAt: '2026-01-02T03:04:06.000Z',
    });
  });

  it('writes an expiry in ISO 8601', () => {
    const expiresAt = new Date('2027-05-06T07:08:09.000Z');
    expect(toKeyView({ ...row, expiresAt }).expiresAt).toBe('2027-05-06T07:08:09.000Z');
  });

  it('adds the whole key only to the creation answer', () => {
    const created = toCreatedKeyView(row, 'gk_AbCdEfGh_secret');
    expect(created.key).toBe('gk_AbCdEfGh_secret');
    expect(toKeyView(row)).not.toHaveProperty('key');
  });
});
