import { FastifyInstance } from 'fastify';
import { SimulatorSettings } from '../simulator-options';
import { SimulatorState } from '../simulator-state';
import { simulatedRoute } from '../simulated-route';
import { etaIotaImagesHandler } from './eta-iota.handler';

/** The eta data plane under `{base}/api/v3` (upstreams.md §6.1); iota images so far (§6.3). */
export function registerEtaRoutes(
  server: FastifyInstance,
  settings: SimulatorSettings,
  state: SimulatorState,
): void {
  server.post('/api/v3/images/generations', simulatedRoute(state, etaIotaImagesHandler(settings, state)));
}
