import type { FastifyInstance } from 'fastify';
import { createSimulatorServer } from './server';

/** The simulator loads Fastify's schema compilers lazily: a route that declares a schema still gets them. */
describe('the simulator server with lazy schema compilers', () => {
  let server: FastifyInstance;

  beforeAll(async () => {
    server = createSimulatorServer();
    server.get(
      '/schema-check',
      {
        schema: {
          querystring: {
            type: 'object',
            required: ['count'],
            properties: { count: { type: 'integer', minimum: 1 } },
          },
          response: { 200: { type: 'object', properties: { count: { type: 'integer' } } } },
        },
      },
      async (request) => ({ ...(request.query as object), secret: 'left out by the response schema' }),
    );
    await server.ready();
  });

  afterAll(() => server.close());

  it('validates a request against the schema its route declares', async () => {
    const refused = await server.inject({ method: 'GET', url: '/schema-check?count=0' });

    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ message: 'querystring/count must be >= 1' });
  });

  it('serialises an answer through its response schema', async () => {
    const answered = await server.inject({ method: 'GET', url: '/schema-check?count=3' });

    expect(answered.statusCode).toBe(200);
    expect(answered.body).toBe('{"count":3}');
  });
});
