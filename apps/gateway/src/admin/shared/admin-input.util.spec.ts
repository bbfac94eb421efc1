import { CreateAccountDto, CreditAccountDto, LogsQueryDto, PutPricesDto } from '@gateway/contracts';
import { GatewayError } from '@gateway/errors';
import { parseAdminInput } from './admin-input.util';

function problemOf(attempt: () => unknown): GatewayError {
  try {
    attempt();
  } catch (error) {
    if (error instanceof GatewayError) return error;
  }
  throw new Error('expected a GatewayError');
}

describe('parseAdminInput', () => {
  it('answers a valid body as its DTO with defaults applied', () => {
    const value = parseAdminInput(CreateAccountDto, { name: 'team' });
    expect(value).toBeInstanceOf(CreateAccountDto);
    expect(value.overdraftLimitMicros).toBe('0');
  });

  it('refuses an unknown field, naming it', () => {
    const error = problemOf(() => parseAdminInput(CreateAccountDto, { name: 'team', overdraftLimit: '5' }));
    expect(error.httpStatus).toBe(400);
    expect(error.param).toBe('overdraftLimit');
    expect(error.message).toContain('overdraftLimit is not a known field');
  });

  it('refuses a wrong value, naming the field', () => {
    const error = problemOf(() =>
      parseAdminInput(CreateAccountDto, { name: 'team', overdraftLimitMicros: '-1' }),
    );
    expect(error.param).toBe('overdraftLimitMicros');
  });

  it.each([
    ['a name', CreateAccountDto, { name: 'te\u0000am' }, 'name'],
    [
      'a free-text note',
      CreditAccountDto,
      { amountMicros: '1', idempotencyKey: 'k', note: '\u0000' },
      'note',
    ],
    [
      'an idempotency key',
      CreditAccountDto,
      { amountMicros: '1', idempotencyKey: 'k\u0000' },
      'idempotencyKey',
    ],
    [
      'a nested price tier',
      PutPricesDto,
      { prices: [{ model: 'm', perImage: { 'hd\u0000': '1' } }] },
      'prices[0].perImage["hd\\u0000"]',
    ],
    ['a query string', LogsQueryDto, { model: 'chat\u0000' }, 'model'],
  ])('refuses NUL in %s with a 400 naming the field, before Postgres sees it', (_case, dto, plain, field) => {
    const error = problemOf(() => parseAdminInput(dto as new () => object, plain));
    expect(error.httpStatus).toBe(400);
    expect(error.param).toBe(field);
    expect(error.message).toContain(`${field} must not contain NUL (U+0000)`);
  });

  it('reads a missing body as an empty object, so the first required field is named', () => {
    expect(problemOf(() => parseAdminInput(CreateAccountDto, undefined)).param).toBe('name');
  });
});
