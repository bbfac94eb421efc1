import { FastifyInstance } from 'fastify';
import { SimulatorSettings } from '../simulator-options';
import { SimulatorState } from '../simulator-state';
import { simulatedRoute } from '../simulated-route';
import { lambdaFetchManyHandler, lambdaFetchOneHandler, lambdaSubmitHandler } from './lambda.handler';

/** The lambda music wire (upstreams.md §9.2): submission, single and batch fetch. */
export function registerLambdaRoutes(
  server: FastifyInstance,
  settings: SimulatorSettings,
  state: SimulatorState,
): void {
  server.post('/lambda/submit/:action', simulatedRoute(state, lambdaSubmitHandler(settings, state)));
  server.post('/lambda/fetch', simulatedRoute(state, lambdaFetchManyHandler(settings, state)));
  server.get('/lambda/fetch/:id', simulatedRoute(state, lambdaFetchOneHandler(settings, state)));
}
