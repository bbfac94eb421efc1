import { FastifyInstance } from 'fastify';
import { SimulatorSettings } from '../simulator-options';
import { SimulatorState } from '../simulator-state';
import { simulatedRoute } from '../simulated-route';
import { ALPHA_ENDPOINTS } from './alpha-submission';
import { alphaCreationsHandler, alphaSubmitHandler } from './alpha-video.handler';

/** The alpha official API under `{base}/ent/v2` (upstreams.md §3.2): four submissions and the creations query. */
export function registerAlphaRoutes(
  server: FastifyInstance,
  settings: SimulatorSettings,
  state: SimulatorState,
): void {
  for (const endpoint of ALPHA_ENDPOINTS) {
    server.post(`/ent/v2/${endpoint}`, simulatedRoute(state, alphaSubmitHandler(settings, state, endpoint)));
  }
  server.get('/ent/v2/tasks/:id/creations', simulatedRoute(state, alphaCreationsHandler(settings, state)));
}
