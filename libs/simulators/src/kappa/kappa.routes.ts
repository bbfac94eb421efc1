import { FastifyInstance } from 'fastify';
import { SimulatorSettings } from '../simulator-options';
import { SimulatorState } from '../simulator-state';
import { simulatedRoute } from '../simulated-route';
import { kappaModelActionHandler } from './kappa-generate.handler';
import { kappaGetModelHandler, kappaListModelsHandler } from './kappa-models.handler';
import { KappaApiVersion } from './kappa-route-context';

const API_VERSIONS: readonly KappaApiVersion[] = ['v1beta', 'v1'];

/** The kappa wire (upstreams.md §1.2) under both `/v1beta` and `/v1`. */
export function registerKappaRoutes(
  server: FastifyInstance,
  settings: SimulatorSettings,
  state: SimulatorState,
): void {
  for (const apiVersion of API_VERSIONS) {
    const context = { settings, state, apiVersion };
    server.get(`/${apiVersion}/models`, simulatedRoute(state, kappaListModelsHandler(context)));
    server.get(`/${apiVersion}/models/:model`, simulatedRoute(state, kappaGetModelHandler(context)));
    server.post(
      `/${apiVersion}/models/:modelAction`,
      simulatedRoute(state, kappaModelActionHandler(context)),
    );
  }
}
