import fastifyMultipart from '@fastify/multipart';
import { FastifyInstance } from 'fastify';
import { MULTIPART_LIMITS } from '../multipart-form.util';
import { SimulatorSettings } from '../simulator-options';
import { SimulatorState } from '../simulator-state';
import { simulatedRoute } from '../simulated-route';
import { compatChatHandler } from './compat-chat.handler';
import { compatImageEditsHandler, compatImageGenerationsHandler } from './compat-images.handler';
import { registerCompatVideoRoutes } from './video/compat-video.routes';

/** The OpenAI-style wire: chat completions, images and videos (upstreams.md §2.1–§2.5). */
export function registerCompatRoutes(
  server: FastifyInstance,
  settings: SimulatorSettings,
  state: SimulatorState,
): void {
  server.post('/v1/chat/completions', simulatedRoute(state, compatChatHandler(settings, state)));
  server.post(
    '/v1/images/generations',
    simulatedRoute(state, compatImageGenerationsHandler(settings, state)),
  );
  // Multipart parsing only where uploads are expected; every other route keeps its raw text body.
  void server.register(async (uploads) => {
    await uploads.register(fastifyMultipart, { limits: MULTIPART_LIMITS });
    uploads.post('/v1/images/edits', simulatedRoute(state, compatImageEditsHandler(settings, state)));
  });
  registerCompatVideoRoutes(server, settings, state);
}
