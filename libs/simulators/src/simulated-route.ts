import { ServerResponse } from 'node:http';
import { FastifyReply, FastifyRequest } from 'fastify';
import { SimulatedExchange } from './simulated-exchange';
import { SimulatorState } from './simulator-state';

/** What a wire handler gets: the raw response to write, the exchange and the raw body text. */
export interface SimulatedCall {
  request: FastifyRequest;
  response: ServerResponse;
  exchange: SimulatedExchange;
  rawBody: string;
}

export type SimulatedHandler = (call: SimulatedCall) => Promise<void>;

/**
 * Adapts a wire handler to Fastify. The reply is hijacked so the handler owns the socket: streams are
 * written chunk by chunk and nothing else (serialisers, hooks) runs per request. A handler failure
 * becomes a 500 naming it, or a cut connection once bytes are out.
 */
export function simulatedRoute(state: SimulatorState, handler: SimulatedHandler) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    reply.hijack();
    const response = reply.raw;
    const call: SimulatedCall = {
      request,
      response,
      exchange: state.exchangeOf(request.raw),
      rawBody: typeof request.body === 'string' ? request.body : '',
    };
    try {
      await handler(call);
    } catch (error) {
      request.log.error({ err: error }, 'simulator handler failed');
      if (!response.headersSent) {
        // The reason goes in the answer too: tests run the simulator without a logger, and a bare 500
        // in a failed test would tell nothing.
        response.writeHead(500, { 'content-type': 'text/plain' });
        response.end(`simulator failure: ${error instanceof Error ? error.stack : String(error)}`);
      } else {
        response.destroy();
      }
    }
  };
}
