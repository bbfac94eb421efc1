import { CreateAccountDto } from '@gateway/contracts';
import { GatewayError } from '../../errors/gateway-error';
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

  it('reads a missing body as an empty object, so the first required field is named', () => {
    expect(problemOf(() => parseAdminInput(CreateAccountDto, undefined)).param).toBe('name');
  });
});
