import { validateBody } from '../validation/validate-body.util';
import { CreateAccountDto, CreditAccountDto } from './account.dto';

const STRICT = { refuseUnknownFields: true };
const NOT_MICROS = 'must be a whole number of micros (a string of digits or a non-negative integer)';

describe('CreateAccountDto', () => {
  it('defaults the overdraft limit to zero', () => {
    const result = validateBody(CreateAccountDto, { name: 'team-a' }, STRICT);
    expect(result.ok && result.value.overdraftLimitMicros).toBe('0');
  });

  it('normalises an integer overdraft limit to a string', () => {
    const result = validateBody(CreateAccountDto, { name: 'team-a', overdraftLimitMicros: 5000000 }, STRICT);
    expect(result.ok && result.value.overdraftLimitMicros).toBe('5000000');
  });

  it('refuses a negative overdraft limit', () => {
    const result = validateBody(CreateAccountDto, { name: 'team-a', overdraftLimitMicros: '-1' }, STRICT);
    expect(!result.ok && result.problems).toEqual([
      { field: 'overdraftLimitMicros', message: `overdraftLimitMicros ${NOT_MICROS}` },
    ]);
  });
});

describe('CreditAccountDto', () => {
  const credit = (amountMicros: unknown, fields: Record<string, unknown> = { idempotencyKey: 'credit-1' }) =>
    validateBody(CreditAccountDto, { amountMicros, ...fields }, STRICT);

  it.each([
    ['1500000', '1500000'],
    [1500000, '1500000'],
    ['9223372036854775807', '9223372036854775807'],
  ])('accepts %j as %s micros', (amount, expected) => {
    const result = credit(amount);
    expect(result.ok && result.value.amountMicros).toBe(expected);
  });

  it('keeps the digits of an amount beyond float precision exactly', () => {
    const result = credit('9007199254740993');
    expect(result.ok && result.value.amountMicros).toBe('9007199254740993');
  });

  it.each([
    ['0', 'amountMicros must be greater than 0'],
    [0, 'amountMicros must be greater than 0'],
    [1.5, `amountMicros ${NOT_MICROS}`],
    [-5, `amountMicros ${NOT_MICROS}`],
    ['1e6', `amountMicros ${NOT_MICROS}`],
    ['1.50', `amountMicros ${NOT_MICROS}`],
    [' 100', `amountMicros ${NOT_MICROS}`],
    [2 ** 53 + 2, `amountMicros ${NOT_MICROS}`],
    ['9223372036854775808', 'amountMicros must be at most 9223372036854775807'],
  ])('refuses amount %j', (amount, message) => {
    const result = credit(amount);
    expect(!result.ok && result.problems).toEqual([{ field: 'amountMicros', message }]);
  });

  it.each([
    ['', 'idempotencyKey must not be empty'],
    ['k'.repeat(201), 'idempotencyKey must be at most 200 characters long'],
    [undefined, 'idempotencyKey is required'],
  ])('refuses idempotency key %j', (idempotencyKey, message) => {
    const result = credit('100', { idempotencyKey });
    expect(!result.ok && result.problems).toEqual([{ field: 'idempotencyKey', message }]);
  });
});
