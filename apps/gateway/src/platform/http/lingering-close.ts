import type { IncomingMessage } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * How much of a refused request's body the gateway reads and drops before it closes the connection,
 * as nginx's lingering close does. The largest body a route accepts (an edit form of 50 MiB of
 * images) fits the size; a client that sends more, stalls, or trickles is cut off all the same.
 */
export const LINGERING_LIMITS = Object.freeze({
  /** Of the body, counted from the refusal on. */
  maxBytes: 64 * 1024 * 1024,
  /** From the refusal on, however steadily the body keeps coming. */
  maxMs: 5_000,
  /** Without a byte of the body. */
  idleMs: 2_000,
});

/**
 * Closes the connection of a request refused before its body has arrived (a wrong key, a body over
 * the limit, a refused form), but only once the rest of the body has been read and dropped.
 *
 * Why not at once, as Node does after a `Connection: close` answer: on Linux, closing a socket whose
 * received data is unread sends a reset instead of the answer's end. A client still uploading then
 * sees a broken connection where the answer was, whenever the reset outruns its reading of the answer
 * (behind a TCP relay, every time), and an SDK sends the whole upload again. A request whose body has
 * all arrived costs nothing here.
 */
export function closeAfterBody(request: FastifyRequest, reply: FastifyReply): void {
  const incoming = request.raw;
  if (incoming.complete || incoming.socket.destroyed || !hasBody(incoming)) return;
  reply.header('connection', 'close');
  lingerUntilBodyEnds(incoming);
}

function hasBody(incoming: IncomingMessage): boolean {
  const length = incoming.headers['content-length'];
  return incoming.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * Node ends a `Connection: close` answer's socket through `destroySoon` once the answer is written;
 * here that only half-closes it (the client reads the whole answer), and the socket is destroyed once
 * the body has ended, or when the limits cut it off. Node's HTTP parser keeps reading the body
 * meanwhile, into the listener here that counts and drops it.
 */
function lingerUntilBodyEnds(incoming: IncomingMessage): void {
  const socket = incoming.socket;
  const closeOnceWritten = socket.destroySoon.bind(socket);
  let answered = false;
  let bodyEnded = false;
  let received = 0;
  const cutOff = () => socket.destroy();
  const deadline = setTimeout(cutOff, LINGERING_LIMITS.maxMs);
  const idle = setTimeout(cutOff, LINGERING_LIMITS.idleMs);
  const stopTimers = () => {
    clearTimeout(deadline);
    clearTimeout(idle);
  };
  socket.destroySoon = () => {
    answered = true;
    if (bodyEnded) closeOnceWritten();
    else socket.end();
  };
  incoming.on('data', (chunk: Buffer) => {
    received += chunk.length;
    if (received > LINGERING_LIMITS.maxBytes) cutOff();
    else idle.refresh();
  });
  incoming.once('end', () => {
    bodyEnded = true;
    stopTimers();
    if (answered) closeOnceWritten();
  });
  socket.once('close', stopTimers);
}
