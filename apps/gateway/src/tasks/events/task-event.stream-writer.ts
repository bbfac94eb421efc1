import type { FastifyReply, FastifyRequest } from 'fastify';
import { REQUEST_ID_HEADER } from '@gateway/observability';
import type { TaskEventOpening } from './task-event-streams.service';

/**
 * Answers an opened task event stream: 204 when the client saw the task's end (an EventSource then
 * stops reconnecting), else the `text/event-stream` head, written by hand because the stream outlives
 * the handler, and the subscription attached to the connection.
 */
export function writeTaskEventStream(
  request: FastifyRequest,
  reply: FastifyReply,
  opening: TaskEventOpening,
): void {
  if (opening === 'finished') {
    reply.status(204).send();
    return;
  }
  try {
    reply.hijack();
    reply.raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      'x-accel-buffering': 'no',
      [REQUEST_ID_HEADER]: request.id,
    });
  } catch (error) {
    opening.release();
    throw error;
  }
  opening.attach(reply.raw, reply.raw.destroyed || request.raw.socket.destroyed);
}
