import type { StreamFraming } from './text-ingress';

/** Writes chunk JSON texts in the framing the client asked for. */
export interface StreamFramer {
  readonly contentType: string;
  /** Bytes for one chunk. */
  chunk(json: string): string;
  /** Bytes that end a successful stream. */
  end(): string;
  /** Bytes for an error after the stream started, ending it. */
  error(errorJson: string): string;
}

class NativeSseFramer implements StreamFramer {
  readonly contentType = 'text/event-stream';
  chunk(json: string): string {
    return `data: ${json}\r\n\r\n`;
  }
  end(): string {
    return '';
  }
  error(errorJson: string): string {
    return `data: ${errorJson}\r\n\r\n`;
  }
}

/** A JSON array written incrementally: `[` first element, `,\r\n` next …, `]`. */
class NativeJsonArrayFramer implements StreamFramer {
  readonly contentType = 'application/json; charset=utf-8';
  private started = false;
  chunk(json: string): string {
    const separator = this.started ? ',\r\n' : '[';
    this.started = true;
    return separator + json;
  }
  end(): string {
    return this.started ? ']' : '[]';
  }
  error(errorJson: string): string {
    return this.chunk(errorJson) + ']';
  }
}

class OpenAiSseFramer implements StreamFramer {
  readonly contentType = 'text/event-stream';
  chunk(json: string): string {
    return `data: ${json}\n\n`;
  }
  end(): string {
    return 'data: [DONE]\n\n';
  }
  error(errorJson: string): string {
    return `data: ${errorJson}\n\n`;
  }
}

export function createStreamFramer(framing: StreamFraming): StreamFramer {
  switch (framing) {
    case 'native-sse':
      return new NativeSseFramer();
    case 'native-json-array':
      return new NativeJsonArrayFramer();
    case 'openai-sse':
      return new OpenAiSseFramer();
  }
}
