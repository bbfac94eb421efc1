import Fastify, { FastifyInstance } from 'fastify';
import { lazySchemaCompilers } from '@gateway/fastify-schema';
import { registerAlphaRoutes } from './alpha/alpha.routes';
import { registerBetaRoutes } from './beta/beta.routes';
import { registerCompatRoutes } from './compat/compat.routes';
import { registerControlRoutes } from './control.routes';
import { splitDirectivePrefix } from './directive-prefix.util';
import { registerEtaRoutes } from './eta/eta.routes';
import { registerGammaRoutes } from './gamma/gamma.routes';
import { registerKappaRoutes } from './kappa/kappa.routes';
import { registerLambdaRoutes } from './lambda/lambda.routes';
import { registerMuRoutes } from './mu/mu.routes';
import { notFoundHandler } from './not-found.handler';
import { registerOmegaRoutes } from './omega/omega.routes';
import { registerRequestLifecycle } from './request-lifecycle';
import { resultFileHandler } from './result-file.handler';
import { RESULT_FILES_PATH } from './result-file-url.util';
import { simulatedRoute } from './simulated-route';
import { SimulatorOptions, StartSimulatorOptions, resolveSimulatorSettings } from './simulator-options';
import { SimulatorState } from './simulator-state';

/** Above the kappa wire's 20 MB inline-data limit, so the wire (not the simulator) decides. */
const BODY_LIMIT_BYTES = 32 * 1024 * 1024;

export interface RunningSimulator {
  url: string;
  server: FastifyInstance;
  close(): Promise<void>;
}

/** The simulator as a Fastify instance, not yet listening. */
export function createSimulatorServer(options: SimulatorOptions = {}): FastifyInstance {
  const settings = resolveSimulatorSettings(options);
  const state = new SimulatorState();
  const server = Fastify({
    logger: options.logger ?? false,
    bodyLimit: BODY_LIMIT_BYTES,
    // Hanging and paced requests must not hold close() for their whole scripted duration.
    forceCloseConnections: true,
    rewriteUrl: (request) => {
      const { url, directives } = splitDirectivePrefix(request.url ?? '/');
      state.begin(request, directives);
      return url;
    },
    schemaController: { compilersFactory: lazySchemaCompilers() },
  });
  // Bodies stay raw text: the journal keeps them verbatim, the directive marker is found with
  // indexOf, and each wire parses JSON itself.
  server.removeAllContentTypeParsers();
  server.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
  registerRequestLifecycle(server, state);
  registerControlRoutes(server, state);
  registerKappaRoutes(server, settings, state);
  registerCompatRoutes(server, settings, state);
  registerEtaRoutes(server, settings, state);
  registerBetaRoutes(server, settings, state);
  registerGammaRoutes(server, settings, state);
  registerMuRoutes(server, settings, state);
  registerOmegaRoutes(server, settings, state);
  registerAlphaRoutes(server, settings, state);
  registerLambdaRoutes(server, settings, state);
  server.get(`${RESULT_FILES_PATH}:name`, simulatedRoute(state, resultFileHandler(state)));
  server.setNotFoundHandler(simulatedRoute(state, notFoundHandler()));
  return server;
}

/** Creates the simulator and listens (127.0.0.1 on a free port unless told otherwise). */
export async function startSimulator(options: StartSimulatorOptions = {}): Promise<RunningSimulator> {
  const server = createSimulatorServer(options);
  const host = options.host ?? '127.0.0.1';
  await server.listen({ host, port: options.port ?? 0 });
  const address = server.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  return { url: `http://${host}:${port}`, server, close: () => server.close() };
}
