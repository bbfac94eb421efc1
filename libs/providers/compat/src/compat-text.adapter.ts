import {
  postForEventStream,
  postForJsonObject,
  type PlainKeyCredentials,
  type TextAdapter,
  type TextResponse,
} from '@gateway/providers-core';
import { classifyCompatError } from './compat-error.classifier';
import { compatChatUrl, compatHeaders, toCompatChatBody } from './compat-request.util';
import { fromCompatStreamEvent } from './compat-stream-event.util';
import { tokenUsageFromCompat } from './compat-usage.util';

/** The OpenAI-style chat completions wire (upstreams.md §2.2), for first-party upstreams and relays. */
export const compatTextAdapter: TextAdapter<PlainKeyCredentials> = {
  dialect: 'openai',

  async generate(call, context) {
    const { body, payload } = await postForJsonObject(
      context,
      {
        url: compatChatUrl(context.channel.baseUrl),
        headers: compatHeaders(context.channel.credentials.apiKey),
        body: toCompatChatBody(call, false),
      },
      classifyCompatError,
    );
    const result: TextResponse = { body, payload, warnings: [] };
    const usage = tokenUsageFromCompat(payload.usage);
    if (usage) result.usage = usage;
    return result;
  },

  stream(call, context) {
    return postForEventStream(
      context,
      {
        url: compatChatUrl(context.channel.baseUrl),
        headers: compatHeaders(context.channel.credentials.apiKey),
        body: toCompatChatBody(call, true),
      },
      classifyCompatError,
      fromCompatStreamEvent,
    );
  },

  classify: classifyCompatError,
};
