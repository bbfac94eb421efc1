import { FastifyInstance } from 'fastify';
import { SimulatorSettings } from '../simulator-options';
import { SimulatorState } from '../simulator-state';
import { simulatedRoute } from '../simulated-route';
import { betaActionHandler } from './beta-action.handler';

/** The beta Action API: signed calls on `/`, the relay form on `/bt` (upstreams.md §4.1). */
export function registerBetaRoutes(
  server: FastifyInstance,
  settings: SimulatorSettings,
  state: SimulatorState,
): void {
  server.post('/', simulatedRoute(state, betaActionHandler(settings, state, 'signed')));
  server.post('/bt', simulatedRoute(state, betaActionHandler(settings, state, 'relay')));
}
