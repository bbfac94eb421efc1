import {
  createNativeToOpenAiChatStreamTranslator,
  createOpenAiChatToNativeStreamTranslator,
  toNativeRequest,
  toNativeResponse,
  toOpenAiChatRequest,
  toOpenAiChatResponse,
  TranslationError,
  type NativeGenerateRequest,
  type NativeGenerateResponse,
  type OpenAiChatChunk,
  type OpenAiChatRequest,
  type OpenAiChatResponse,
} from '@gateway/dialects';
import type { TextCall, TextDialect, TextResponse, TextStreamEvent } from '@gateway/providers-core';
import { GatewayError } from '@gateway/errors';
import type { TextIngress } from './text-ingress';

/** Converts the chunks of one upstream stream into chunk JSON texts of the client's dialect. */
export interface StreamChunkConverter {
  /**
   * True when the client gets this event exactly as the upstream sent it, framing included, so that
   * its bytes are forwarded untouched and push() is not called for it.
   */
  forwardsAsSent(event: TextStreamEvent): boolean;
  push(event: TextStreamEvent): string[];
  finish(): string[];
}

/**
 * Everything that depends on the pair (client dialect, channel dialect): the upstream request, the
 * client body and the stream chunk conversion. Same dialect means pass-through of the bytes.
 */
export interface DialectBridge {
  readonly channelDialect: TextDialect;
  /** Documented translation rules that changed the request (fields dropped or mapped approximately). */
  readonly warnings: readonly string[];
  toCall(upstreamModel: string): TextCall;
  toClientBody(response: TextResponse): Buffer;
  createStreamConverter(): StreamChunkConverter;
}

export interface BridgeIdentity {
  responseId: string;
  createdSeconds: number;
}

/** Builds the bridge for a channel dialect, or throws a 400 naming the field the channel cannot take. */
export function createDialectBridge(
  ingress: TextIngress,
  channelDialect: TextDialect,
  identity: BridgeIdentity,
): DialectBridge {
  if (ingress.dialect === channelDialect) {
    return channelDialect === 'native' ? new NativePassThrough(ingress) : new OpenAiPassThrough(ingress);
  }
  try {
    return ingress.dialect === 'native'
      ? new NativeClientOnOpenAiChannel(ingress)
      : new OpenAiClientOnNativeChannel(ingress, identity);
  } catch (error) {
    if (error instanceof TranslationError) {
      throw new GatewayError('invalid_request', `${error.field}: ${error.message}`, { param: error.field });
    }
    throw error;
  }
}

function jsonBuffer(value: unknown): Buffer {
  return Buffer.from(JSON.stringify(value));
}

class NativePassThrough implements DialectBridge {
  readonly channelDialect = 'native';
  readonly warnings = [];
  constructor(private readonly ingress: TextIngress) {}

  toCall(upstreamModel: string): TextCall {
    return { upstreamModel, request: this.ingress.request, rawBody: this.ingress.rawBody };
  }
  toClientBody(response: TextResponse): Buffer {
    return response.body;
  }
  /** The upstream is always asked for SSE; a client that asked for SSE gets its bytes as they are. */
  createStreamConverter(): StreamChunkConverter {
    const asSent = this.ingress.framing === 'native-sse';
    return { forwardsAsSent: () => asSent, push: (event) => [event.json], finish: () => [] };
  }
}

class OpenAiPassThrough implements DialectBridge {
  readonly channelDialect = 'openai';
  readonly warnings = [];
  constructor(private readonly ingress: TextIngress) {}

  toCall(upstreamModel: string): TextCall {
    return { upstreamModel, request: this.ingress.request, rawBody: this.ingress.rawBody };
  }

  /** The upstream names its own model id; the client sees the public name it asked for. */
  toClientBody(response: TextResponse): Buffer {
    if (response.payload['model'] === this.ingress.model) return response.body;
    return jsonBuffer({ ...response.payload, model: this.ingress.model });
  }

  createStreamConverter(): StreamChunkConverter {
    const { model, includeUsage } = this.ingress;
    // The gateway always asks for the usage chunk; a client that did not gets the stream without it.
    const isUnwantedUsageChunk = (event: TextStreamEvent) =>
      !includeUsage && Array.isArray(event.chunk['choices']) && event.chunk['choices'].length === 0;
    return {
      forwardsAsSent: (event) => event.chunk['model'] === model && !isUnwantedUsageChunk(event),
      // Only events that do not go as sent reach push(): an unwanted usage chunk, or a model to rename.
      push: (event) => (isUnwantedUsageChunk(event) ? [] : [JSON.stringify({ ...event.chunk, model })]),
      finish: () => [],
    };
  }
}

class NativeClientOnOpenAiChannel implements DialectBridge {
  readonly channelDialect = 'openai';
  readonly warnings: readonly string[];
  private readonly translated: OpenAiChatRequest;

  constructor(private readonly ingress: TextIngress) {
    const { request, warnings } = toOpenAiChatRequest(ingress.request as NativeGenerateRequest, {
      model: ingress.model,
      stream: ingress.framing !== undefined,
    });
    this.translated = request;
    this.warnings = warnings;
  }

  toCall(upstreamModel: string): TextCall {
    return {
      upstreamModel,
      request: { ...this.translated, model: upstreamModel } as Record<string, unknown>,
    };
  }
  toClientBody(response: TextResponse): Buffer {
    return jsonBuffer(
      toNativeResponse(response.payload as unknown as OpenAiChatResponse, {
        modelVersion: this.ingress.model,
      }),
    );
  }
  createStreamConverter(): StreamChunkConverter {
    const translator = createOpenAiChatToNativeStreamTranslator({ modelVersion: this.ingress.model });
    const serialise = (chunks: NativeGenerateResponse[]) => chunks.map((chunk) => JSON.stringify(chunk));
    return {
      forwardsAsSent: () => false,
      push: (event) => serialise(translator.push(event.chunk as unknown as OpenAiChatChunk)),
      finish: () => serialise(translator.finish()),
    };
  }
}

class OpenAiClientOnNativeChannel implements DialectBridge {
  readonly channelDialect = 'native';
  readonly warnings: readonly string[];
  private readonly translated: NativeGenerateRequest;

  constructor(
    private readonly ingress: TextIngress,
    private readonly identity: BridgeIdentity,
  ) {
    const { request, warnings } = toNativeRequest(ingress.request as unknown as OpenAiChatRequest);
    this.translated = request;
    this.warnings = warnings;
  }

  toCall(upstreamModel: string): TextCall {
    return { upstreamModel, request: this.translated as Record<string, unknown> };
  }
  toClientBody(response: TextResponse): Buffer {
    return jsonBuffer(
      toOpenAiChatResponse(response.payload as NativeGenerateResponse, {
        model: this.ingress.model,
        id: this.identity.responseId,
        created: this.identity.createdSeconds,
      }),
    );
  }
  createStreamConverter(): StreamChunkConverter {
    const translator = createNativeToOpenAiChatStreamTranslator({
      model: this.ingress.model,
      id: this.identity.responseId,
      created: this.identity.createdSeconds,
      includeUsage: this.ingress.includeUsage,
    });
    const serialise = (chunks: OpenAiChatChunk[]) => chunks.map((chunk) => JSON.stringify(chunk));
    return {
      forwardsAsSent: () => false,
      push: (event) => serialise(translator.push(event.chunk as NativeGenerateResponse)),
      finish: () => serialise(translator.finish()),
    };
  }
}
