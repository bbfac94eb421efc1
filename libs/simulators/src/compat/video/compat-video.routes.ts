import fastifyMultipart from '@fastify/multipart';
import { FastifyInstance } from 'fastify';
import { MULTIPART_LIMITS } from '../../multipart-form.util';
import { simulatedRoute } from '../../simulated-route';
import { SimulatorSettings } from '../../simulator-options';
import { SimulatorState } from '../../simulator-state';
import {
  compatCharacterCreateHandler,
  compatCharacterRetrieveHandler,
} from './compat-video-characters.handler';
import {
  compatVideoContentHandler,
  compatVideoCreateHandler,
  compatVideoDeleteHandler,
  compatVideoListHandler,
  compatVideoRemixHandler,
  compatVideoRetrieveHandler,
} from './compat-videos.handler';

/** The compat videos wire (upstreams.md §2.4). */
export function registerCompatVideoRoutes(
  server: FastifyInstance,
  settings: SimulatorSettings,
  state: SimulatorState,
): void {
  server.get('/v1/videos', simulatedRoute(state, compatVideoListHandler(settings, state)));
  server.get('/v1/videos/:id', simulatedRoute(state, compatVideoRetrieveHandler(settings, state)));
  server.get('/v1/videos/:id/content', simulatedRoute(state, compatVideoContentHandler(settings, state)));
  server.post('/v1/videos/:id/remix', simulatedRoute(state, compatVideoRemixHandler(settings, state)));
  server.delete('/v1/videos/:id', simulatedRoute(state, compatVideoDeleteHandler(settings, state)));
  server.get(
    '/v1/videos/characters/:characterId',
    simulatedRoute(state, compatCharacterRetrieveHandler(settings, state)),
  );
  // Create takes JSON (a raw text body, like every other route) or multipart; characters multipart.
  void server.register(async (uploads) => {
    await uploads.register(fastifyMultipart, { limits: MULTIPART_LIMITS });
    uploads.post('/v1/videos', simulatedRoute(state, compatVideoCreateHandler(settings, state)));
    uploads.post(
      '/v1/videos/characters',
      simulatedRoute(state, compatCharacterCreateHandler(settings, state)),
    );
  });
}
