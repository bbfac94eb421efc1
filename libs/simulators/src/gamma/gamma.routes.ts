import { FastifyInstance } from 'fastify';
import { SimulatorSettings } from '../simulator-options';
import { SimulatorState } from '../simulator-state';
import { simulatedRoute } from '../simulated-route';
import { gammaActionHandler } from './gamma-action.handler';
import { gammaOfficialCreateHandler, gammaOfficialQueryHandler } from './gamma-official.handler';
import { GAMMA_OFFICIAL_ENDPOINTS } from './gamma-official-submission';

/** The route constraint that tells a gamma call (`X-Gamma-Action`) from a beta one on the same `POST /`. */
const GAMMA_ACTION_CONSTRAINT = 'gammaAction';
const PRESENT = 'present';

/**
 * The gamma AIGC task API: `POST /` with the action in `X-Gamma-Action` (upstreams.md §5.1). beta's
 * Action API is also `POST /` (its action in the query), so gamma's route is constrained on its
 * header: a call without it still reaches beta. And the family's official-compatible wire (§5.8)
 * under `/v1/videos/{text2video,image2video,omni-video}`, beside the compat video routes (whose ids
 * never take these names).
 */
export function registerGammaRoutes(
  server: FastifyInstance,
  settings: SimulatorSettings,
  state: SimulatorState,
): void {
  server.addConstraintStrategy({
    name: GAMMA_ACTION_CONSTRAINT,
    storage() {
      const handlers = new Map<unknown, unknown>();
      return {
        get: (value: unknown) => (handlers.get(value) ?? null) as never,
        set: (value: unknown, handler: unknown) => void handlers.set(value, handler),
      };
    },
    deriveConstraint: (request) => (request.headers['x-gamma-action'] === undefined ? undefined : PRESENT),
  });
  server.post(
    '/',
    { constraints: { [GAMMA_ACTION_CONSTRAINT]: PRESENT } },
    simulatedRoute(state, gammaActionHandler(settings, state)),
  );
  for (const endpoint of GAMMA_OFFICIAL_ENDPOINTS) {
    server.post(
      `/v1/videos/${endpoint}`,
      simulatedRoute(state, gammaOfficialCreateHandler(settings, state, endpoint)),
    );
    server.get(
      `/v1/videos/${endpoint}/:taskId`,
      simulatedRoute(state, gammaOfficialQueryHandler(settings, state, endpoint)),
    );
  }
}
