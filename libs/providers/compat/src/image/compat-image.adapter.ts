import {
  postForJsonObject,
  type AdapterContext,
  type PlainKeyCredentials,
  type SynchronousImageAdapter,
} from '@gateway/providers-core';
import { classifyCompatError } from '../compat-error.classifier';
import { compatHeaders } from '../compat-request.util';
import { compatImagesUrl, toCompatEditsForm, toCompatGenerationsBody } from './compat-image-request.util';
import { fromCompatImageResponse } from './compat-image-response.util';
import { compatImageRules } from './compat-image.rules';

const headersOf = (context: AdapterContext<PlainKeyCredentials>, contentType?: string) => {
  const headers = compatHeaders(context.channel.credentials.apiKey);
  return contentType ? { ...headers, 'content-type': contentType } : headers;
};

/**
 * The OpenAI-style image wire (upstreams.md §2.3): generations as JSON, edits as multipart, both
 * answered in the same call. A content-policy block is a 400 the compat classifier names.
 */
export const compatImageAdapter: SynchronousImageAdapter<PlainKeyCredentials> = {
  mode: 'synchronous',
  plan(request, operation) {
    return compatImageRules.plan(request, operation);
  },
  async generate(call, context) {
    const { payload } = await postForJsonObject(
      context,
      {
        url: compatImagesUrl(context.channel.baseUrl, 'generations'),
        headers: headersOf(context),
        body: toCompatGenerationsBody(call),
      },
      classifyCompatError,
    );
    return fromCompatImageResponse(payload, call);
  },
  async edit(call, context) {
    const form = await toCompatEditsForm(call);
    const { payload } = await postForJsonObject(
      context,
      {
        url: compatImagesUrl(context.channel.baseUrl, 'edits'),
        headers: headersOf(context, form.contentType),
        body: form.body,
      },
      classifyCompatError,
    );
    return fromCompatImageResponse(payload, call);
  },
};
