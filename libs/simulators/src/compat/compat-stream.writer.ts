import { ServerResponse } from 'node:http';

/** Server-Sent Events of the OpenAI-style wire: LF framing, `data: [DONE]` at the end. */
export interface CompatStreamWriter {
  writeEvent(value: unknown): void;
  writeDone(): void;
  end(): void;
}

export function openCompatStream(response: ServerResponse): CompatStreamWriter {
  response.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
  });
  const write = (text: string): void => {
    if (!response.destroyed) response.write(text);
  };
  return {
    writeEvent: (value) => write(`data: ${JSON.stringify(value)}\n\n`),
    writeDone: () => write('data: [DONE]\n\n'),
    end: () => response.end(),
  };
}
