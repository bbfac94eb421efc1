import { sendBytesWithRange } from './byte-range.util';
import { SimulatedHandler } from './simulated-route';
import { SimulatorState } from './simulator-state';
import { pause } from './timing.util';

/**
 * `GET {base}/files/{name}`: the bytes behind a result URL, or the one byte range a `Range` header
 * asks for (a relayed video is read in parts). An expired link answers 403 and an
 * unknown one 404, in the XML error form object stores use (project convention; upstreams.md leaves
 * it open). Downloads need no key, as signed result links need none. Only `latency=` applies: a failure
 * scripted on a channel's base URL already fails the call that would have produced the link.
 */
export function resultFileHandler(state: SimulatorState): SimulatedHandler {
  return async (call) => {
    state.stats.countRoute('files:get');
    const { latencyMs } = call.exchange.directives(call.request.headers['x-sim'], '');
    if (latencyMs && !(await pause(latencyMs, call.exchange.signal))) return;
    call.exchange.markAuthenticated();
    const { name } = call.request.params as { name: string };
    const lookup = state.files.lookup(name);
    if ('missing' in lookup) {
      const expired = lookup.missing === 'expired';
      const body = expired
        ? xmlError('AccessDenied', 'Request has expired.')
        : xmlError('NoSuchKey', 'The specified key does not exist.');
      call.response.writeHead(expired ? 403 : 404, {
        'content-type': 'application/xml',
        'content-length': Buffer.byteLength(body),
      });
      call.response.end(body);
      return;
    }
    const { content, expiresAtMs } = lookup.found;
    sendBytesWithRange(call.response, call.request, content.bytes, {
      'content-type': content.contentType,
      expires: new Date(expiresAtMs).toUTCString(),
    });
  };
}

function xmlError(code: string, message: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`;
}
