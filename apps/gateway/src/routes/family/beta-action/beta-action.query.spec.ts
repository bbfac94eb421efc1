import { GatewayError } from '@gateway/errors';
import { betaActionOf } from './beta-action.query';

describe('betaActionOf', () => {
  it.each([
    ['CVSync2AsyncSubmitTask', 'submit'],
    ['CVSync2AsyncGetResult', 'getResult'],
  ])('reads %s at 2022-08-31 as %s', (Action, action) => {
    expect(betaActionOf({ Action, Version: '2022-08-31' })).toBe(action);
  });

  it.each([
    [{ Version: '2022-08-31' }, 'Action'],
    [{ Action: '', Version: '2022-08-31' }, 'Action'],
    [{ Action: ['CVSync2AsyncSubmitTask', 'CVSync2AsyncGetResult'], Version: '2022-08-31' }, 'Action'],
    [{ Action: 'CVSync2AsyncSubmitTask' }, 'Version'],
    [{ Action: 'CVSync2AsyncSubmitTask', Version: '2024-01-01' }, 'Version'],
    [{ Action: 'toString', Version: '2022-08-31' }, 'Action'],
    [{ Action: 'CVSync2AsyncListTasks', Version: '2022-08-31' }, 'Action'],
  ])('refuses %j, naming %s', (query, param) => {
    let refusal: unknown;
    try {
      betaActionOf(query);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(GatewayError);
    expect(refusal).toMatchObject({ code: 'invalid_request', httpStatus: 400, param });
  });
});
