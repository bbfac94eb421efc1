import {
  postForEventStream,
  postForJsonObject,
  type PlainKeyCredentials,
  type TextAdapter,
  type TextResponse,
} from '@gateway/providers-core';
import { classifyKappaError } from './kappa-error.classifier';
import { kappaHeaders, kappaModelUrl, toKappaRequestBody } from './kappa-request.util';
import { fromKappaStreamEvent } from './kappa-stream-event.util';
import { promptBlockReasonOf, tokenUsageFromKappa } from './kappa-usage.util';

/** The native generation wire (upstreams.md §1): `generateContent` and `streamGenerateContent`. */
export const kappaTextAdapter: TextAdapter<PlainKeyCredentials> = {
  dialect: 'native',

  async generate(call, context) {
    const { body, payload } = await postForJsonObject(
      context,
      {
        url: kappaModelUrl(context.channel.baseUrl, call.upstreamModel, 'generateContent'),
        headers: kappaHeaders(context.channel.credentials.apiKey),
        body: toKappaRequestBody(call),
      },
      classifyKappaError,
    );
    const result: TextResponse = { body, payload, warnings: [] };
    const usage = tokenUsageFromKappa(payload.usageMetadata);
    if (usage) result.usage = usage;
    const promptBlockReason = promptBlockReasonOf(payload);
    if (promptBlockReason) result.promptBlockReason = promptBlockReason;
    return result;
  },

  stream(call, context) {
    return postForEventStream(
      context,
      {
        url: kappaModelUrl(context.channel.baseUrl, call.upstreamModel, 'streamGenerateContent'),
        headers: kappaHeaders(context.channel.credentials.apiKey),
        body: toKappaRequestBody(call),
      },
      classifyKappaError,
      fromKappaStreamEvent,
    );
  },

  classify: classifyKappaError,
};
