import Fastify, { type FastifyInstance } from 'fastify';
import { lazySchemaCompilers } from './lazy-schema-compilers';

describe('lazySchemaCompilers', () => {
  let server: FastifyInstance;

  beforeAll(async () => {
    server = Fastify({ schemaController: { compilersFactory: lazySchemaCompilers() } });
    server.post(
      '/echo',
      {
        schema: {
          body: {
            type: 'object',
            required: ['count'],
            properties: { count: { type: 'integer', minimum: 1 } },
          },
          response: {
            200: { type: 'object', properties: { count: { type: 'integer' } } },
          },
        },
      },
      async (request) => ({ ...(request.body as object), secret: 'left out by the response schema' }),
    );
    await server.ready();
  });

  afterAll(() => server.close());

  it('validates a body against its schema once a route declares one', async () => {
    const refused = await server.inject({ method: 'POST', url: '/echo', payload: { count: 0 } });

    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ message: 'body/count must be >= 1' });
  });

  it('serialises an answer through its response schema', async () => {
    const answered = await server.inject({ method: 'POST', url: '/echo', payload: { count: 3 } });

    expect(answered.statusCode).toBe(200);
    expect(answered.body).toBe('{"count":3}');
  });
});
