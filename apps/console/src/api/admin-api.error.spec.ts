import { AdminApiError, errorFromAnswer } from './admin-api.error';
import { queryString } from './admin-client';

describe('reading the admin API', () => {
  it("takes the message, code and field from the admin API's envelope", () => {
    const error = errorFromAnswer(
      400,
      JSON.stringify({
        error: {
          message: 'name must be shorter',
          type: 'invalid_request_error',
          param: 'name',
          code: 'invalid_value',
        },
      }),
    );
    expect(error).toBeInstanceOf(AdminApiError);
    expect(error).toMatchObject({
      status: 400,
      message: 'name must be shorter',
      code: 'invalid_value',
      param: 'name',
    });
    expect(error.notFound).toBe(false);
  });

  it('falls back to the type, then to the status, for bodies that are not the envelope', () => {
    expect(errorFromAnswer(409, '{"error":{"message":"taken","type":"conflict"}}').code).toBe('conflict');
    const page = errorFromAnswer(502, '<html>Bad gateway</html>');
    expect(page.message).toBe('The gateway answered HTTP 502.');
    expect(page.code).toBeUndefined();
    expect(errorFromAnswer(404, '').notFound).toBe(true);
  });

  it('leaves empty filters out of the query string and encodes the rest', () => {
    expect(queryString({ model: 'omega2.6-t2v:1280*720', status: '', cursor: undefined, limit: 25 })).toBe(
      '?model=omega2.6-t2v%3A1280*720&limit=25',
    );
    expect(queryString({ status: '' })).toBe('');
    expect(queryString(undefined)).toBe('');
  });
});
