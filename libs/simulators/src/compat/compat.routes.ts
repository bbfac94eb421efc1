import { FastifyInstance } from 'fastify';
import { SimulatorSettings } from '../simulator-options';
import { SimulatorState } from '../simulator-state';
import { simulatedRoute } from '../simulated-route';
import { compatChatHandler } from './compat-chat.handler';

/** The OpenAI-style chat completions wire (upstreams.md §2.1, §2.2, §2.5). */
export function registerCompatRoutes(
  server: FastifyInstance,
  settings: SimulatorSettings,
  state: SimulatorState,
): void {
  server.post('/v1/chat/completions', simulatedRoute(state, compatChatHandler(settings, state)));
}
