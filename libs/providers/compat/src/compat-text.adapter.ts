import {
  createEventTextStream,
  isSuccessStatus,
  linkAbortController,
  malformedAnswerError,
  parseJsonObject,
  readServerSentEvents,
  upstreamErrorFromResponse,
  type TextAdapter,
  type TextResponse,
} from '@gateway/providers-core';
import { classifyCompatError } from './compat-error.classifier';
import { compatChatUrl, compatHeaders, toCompatChatBody } from './compat-request.util';
import { fromCompatStreamEvent } from './compat-stream-event.util';
import { tokenUsageFromCompat } from './compat-usage.util';

/** The OpenAI-style chat completions wire (upstreams.md §2.2), for first-party upstreams and relays. */
export const compatTextAdapter: TextAdapter = {
  dialect: 'openai',

  async generate(call, context) {
    const response = await context.http.request({
      method: 'POST',
      url: compatChatUrl(context.channel.baseUrl),
      headers: compatHeaders(context.channel.secret),
      body: toCompatChatBody(call, false),
      signal: context.signal,
      headersTimeoutMs: context.headersTimeoutMs,
    });
    if (!isSuccessStatus(response.status))
      throw await upstreamErrorFromResponse(response, classifyCompatError);
    const body = await response.bytes();
    const payload = parseJsonObject(body.toString('utf8'));
    if (!payload) throw malformedAnswerError(response.status);
    const result: TextResponse = { body, payload };
    const usage = tokenUsageFromCompat(payload.usage);
    if (usage) result.usage = usage;
    return result;
  },

  async stream(call, context) {
    const abortController = linkAbortController(context.signal);
    try {
      const response = await context.http.request({
        method: 'POST',
        url: compatChatUrl(context.channel.baseUrl),
        headers: compatHeaders(context.channel.secret),
        body: toCompatChatBody(call, true),
        signal: abortController.signal,
        headersTimeoutMs: context.headersTimeoutMs,
      });
      if (!isSuccessStatus(response.status))
        throw await upstreamErrorFromResponse(response, classifyCompatError);
      return createEventTextStream({
        events: readServerSentEvents(response.body),
        abortController,
        toEvent: fromCompatStreamEvent,
      });
    } catch (error) {
      abortController.unlink();
      throw error;
    }
  },

  classify: classifyCompatError,
};
