import { validateBody } from '../validation/validate-body.util';
import { CreateKeyDto, UpdateKeyDto } from './key.dto';

const STRICT = { refuseUnknownFields: true };

describe('CreateKeyDto', () => {
  it('accepts a minimal and a full key', () => {
    expect(validateBody(CreateKeyDto, { accountId: 'acc_1', name: 'ci' }, STRICT).ok).toBe(true);
    const full = {
      accountId: 'acc_1',
      name: 'ci',
      expiresAt: '2030-01-01T00:00:00Z',
      allowedModels: ['kappa-2.0-flash', 'img-1'],
    };
    const result = validateBody(CreateKeyDto, full, STRICT);
    expect(result.ok && result.value).toMatchObject(full);
  });

  it.each([
    [{ expiresAt: 'next year' }, 'expiresAt', 'expiresAt must be an ISO 8601 date or date-time'],
    [{ expiresAt: 1893456000 }, 'expiresAt', 'expiresAt must be an ISO 8601 date or date-time'],
    [{ allowedModels: 'img-1' }, 'allowedModels', 'allowedModels must be an array'],
    [{ allowedModels: ['img-1', ''] }, 'allowedModels[1]', 'allowedModels[1] must not be empty'],
    [{ accountId: undefined }, 'accountId', 'accountId is required'],
  ])('refuses %j at %s', (fields, field, message) => {
    const result = validateBody(CreateKeyDto, { accountId: 'acc_1', name: 'ci', ...fields }, STRICT);
    expect(!result.ok && result.problems).toEqual([{ field, message }]);
  });
});

describe('UpdateKeyDto', () => {
  it('accepts null expiresAt, which clears the expiry', () => {
    const result = validateBody(UpdateKeyDto, { expiresAt: null }, STRICT);
    expect(result.ok && result.value.expiresAt).toBeNull();
  });

  it('accepts a status change', () => {
    expect(validateBody(UpdateKeyDto, { status: 'disabled' }, STRICT).ok).toBe(true);
  });

  it.each([
    [{ status: 'revoked' }, 'status', 'status must be one of active, disabled'],
    [{ name: null }, 'name', 'name must be a string'],
    [{ expiresAt: '2030-13-01' }, 'expiresAt', 'expiresAt must be an ISO 8601 date or date-time'],
    [{ hash: 'abc' }, 'hash', 'hash is not a known field'],
  ])('refuses %j at %s', (fields, field, message) => {
    const result = validateBody(UpdateKeyDto, fields, STRICT);
    expect(!result.ok && result.problems).toEqual([{ field, message }]);
  });
});
