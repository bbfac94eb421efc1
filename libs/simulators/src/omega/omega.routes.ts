import { FastifyInstance } from 'fastify';
import { SimulatorSettings } from '../simulator-options';
import { SimulatorState } from '../simulator-state';
import { simulatedRoute } from '../simulated-route';
import { omegaHandler } from './omega-video.handler';

/** omega video (upstreams.md §8.2): the asynchronous submission and the task query. */
export function registerOmegaRoutes(
  server: FastifyInstance,
  settings: SimulatorSettings,
  state: SimulatorState,
): void {
  server.post(
    '/api/v1/services/aigc/video-generation/video-synthesis',
    simulatedRoute(state, omegaHandler(settings, state, 'submit')),
  );
  server.get('/api/v1/tasks/:taskId', simulatedRoute(state, omegaHandler(settings, state, 'query')));
}
