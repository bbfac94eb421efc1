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
import { classifyKappaError } from './kappa-error.classifier';
import { kappaHeaders, kappaModelUrl, toKappaRequestBody } from './kappa-request.util';
import { fromKappaStreamEvent } from './kappa-stream-event.util';
import { promptBlockReasonOf, tokenUsageFromKappa } from './kappa-usage.util';

/** The native generation wire (upstreams.md §1): `generateContent` and `streamGenerateContent`. */
export const kappaTextAdapter: TextAdapter = {
  dialect: 'native',

  async generate(call, context) {
    const response = await context.http.request({
      method: 'POST',
      url: kappaModelUrl(context.channel.baseUrl, call.upstreamModel, 'generateContent'),
      headers: kappaHeaders(context.channel.secret),
      body: toKappaRequestBody(call),
      signal: context.signal,
      headersTimeoutMs: context.headersTimeoutMs,
    });
    if (!isSuccessStatus(response.status))
      throw await upstreamErrorFromResponse(response, classifyKappaError);
    const body = await response.bytes();
    const payload = parseJsonObject(body.toString('utf8'));
    if (!payload) throw malformedAnswerError(response.status);
    const result: TextResponse = { body, payload };
    const usage = tokenUsageFromKappa(payload.usageMetadata);
    if (usage) result.usage = usage;
    const promptBlockReason = promptBlockReasonOf(payload);
    if (promptBlockReason) result.promptBlockReason = promptBlockReason;
    return result;
  },

  async stream(call, context) {
    const abortController = linkAbortController(context.signal);
    try {
      const response = await context.http.request({
        method: 'POST',
        url: kappaModelUrl(context.channel.baseUrl, call.upstreamModel, 'streamGenerateContent'),
        headers: kappaHeaders(context.channel.secret),
        body: toKappaRequestBody(call),
        signal: abortController.signal,
        headersTimeoutMs: context.headersTimeoutMs,
      });
      if (!isSuccessStatus(response.status))
        throw await upstreamErrorFromResponse(response, classifyKappaError);
      return createEventTextStream({
        events: readServerSentEvents(response.body),
        abortController,
        toEvent: fromKappaStreamEvent,
      });
    } catch (error) {
      abortController.unlink();
      throw error;
    }
  },

  classify: classifyKappaError,
};
