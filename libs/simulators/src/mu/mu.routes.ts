import { FastifyInstance } from 'fastify';
import { SimulatorSettings } from '../simulator-options';
import { SimulatorState } from '../simulator-state';
import { simulatedRoute } from '../simulated-route';
import { muHandler } from './mu-video.handler';

/** mu video (upstreams.md §7.2): submit, status query, and the file-retrieve call for the result. */
export function registerMuRoutes(
  server: FastifyInstance,
  settings: SimulatorSettings,
  state: SimulatorState,
): void {
  server.post('/v1/video_generation', simulatedRoute(state, muHandler(settings, state, 'submit')));
  server.get('/v1/query/video_generation', simulatedRoute(state, muHandler(settings, state, 'query')));
  server.get('/v1/files/retrieve', simulatedRoute(state, muHandler(settings, state, 'retrieveFile')));
}
