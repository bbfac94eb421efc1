import Fastify, { type FastifyInstance } from 'fastify';
import { lazySchemaCompilers } from './lazy-schema-compilers';

/** The compiler modules loaded in this file's module registry so far. */
const loadedCompilerModules = () =>
  Object.keys(require.cache).filter((path) =>
    /@fastify\/(ajv-compiler|fast-json-stringify-compiler)\//.test(path),
  );

describe('lazySchemaCompilers', () => {
  // First in the file: the module registry is the file's own, and no route with a schema was compiled yet.
  it('loads no compiler for a server whose routes declare no schema', async () => {
    const server = Fastify({ schemaController: { compilersFactory: lazySchemaCompilers() } });
    server.get('/plain', async () => ({ plain: true }));
    await server.ready();

    expect((await server.inject({ method: 'GET', url: '/plain' })).json()).toEqual({ plain: true });
    expect(loadedCompilerModules()).toEqual([]);
    await server.close();
  });

  describe('a route that declares a schema', () => {
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

    it('has its body validated against the schema', async () => {
      const refused = await server.inject({ method: 'POST', url: '/echo', payload: { count: 0 } });

      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ message: 'body/count must be >= 1' });
      expect(loadedCompilerModules().length).toBeGreaterThan(0);
    });

    it('has its answer serialised through its response schema', async () => {
      const answered = await server.inject({ method: 'POST', url: '/echo', payload: { count: 3 } });

      expect(answered.statusCode).toBe(200);
      expect(answered.body).toBe('{"count":3}');
    });
  });
});
