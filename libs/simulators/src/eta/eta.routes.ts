import { FastifyInstance } from 'fastify';
import { SimulatorSettings } from '../simulator-options';
import { SimulatorState } from '../simulator-state';
import { simulatedRoute } from '../simulated-route';
import { ETA_CONTROL_PATH, etaControlHandler } from './control-plane/eta-control.handler';
import { etaIotaImagesHandler } from './eta-iota.handler';
import { etaThetaHandler } from './eta-theta.handler';

/**
 * The eta data plane under `{base}/api/v3` (upstreams.md §6.1): theta video tasks (§6.2), iota images
 * (§6.3); and the asset control plane (§6.5) under `/eta-control/`.
 */
export function registerEtaRoutes(
  server: FastifyInstance,
  settings: SimulatorSettings,
  state: SimulatorState,
): void {
  server.post('/api/v3/images/generations', simulatedRoute(state, etaIotaImagesHandler(settings, state)));
  const tasks = '/api/v3/contents/generations/tasks';
  server.post(tasks, simulatedRoute(state, etaThetaHandler(settings, state, 'create')));
  server.get(tasks, simulatedRoute(state, etaThetaHandler(settings, state, 'list')));
  server.get(`${tasks}/:id`, simulatedRoute(state, etaThetaHandler(settings, state, 'get')));
  server.delete(`${tasks}/:id`, simulatedRoute(state, etaThetaHandler(settings, state, 'cancel')));
  server.post(ETA_CONTROL_PATH, simulatedRoute(state, etaControlHandler(settings, state)));
}
