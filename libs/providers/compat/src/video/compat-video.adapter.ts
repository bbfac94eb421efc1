import {
  malformedAnswerError,
  postForJsonObject,
  type PlainKeyCredentials,
  type VideoAdapter,
} from '@gateway/providers-core';
import { classifyCompatError } from '../compat-error.classifier';
import { requireCompatVideoHandle } from './compat-video-handle';
import { compatVideosUrl, toCharacterForm, videoPath } from './compat-video-request.util';
import { compatVideoRules } from './compat-video.rules';

/**
 * The compat videos wire beyond submit and poll (upstreams.md §2.4): the family rules, the bytes from
 * `/content` in three variants (the first-party wire puts no URL in the object, and relays serve it
 * too), and characters. The task capability (compatVideoTaskAdapter) runs the calls.
 */
export const compatVideoAdapter: VideoAdapter<PlainKeyCredentials> = {
  servesVideoModel: (model) => compatVideoRules.servesVideoModel(model),
  planVideo: (request) => compatVideoRules.planVideo(request),
  contentVariants: ['video', 'thumbnail', 'spritesheet'],

  openContent(handle, { variant, range }, context) {
    const { videoId } = requireCompatVideoHandle(handle);
    const url = `${compatVideosUrl(context.channel.baseUrl, videoPath(videoId, '/content'))}?variant=${variant}`;
    return context.http.request({
      method: 'GET',
      url,
      headers: {
        authorization: `Bearer ${context.channel.credentials.apiKey}`,
        ...(range !== undefined && { range }),
      },
      signal: context.signal,
      headersTimeoutMs: context.headersTimeoutMs,
    });
  },

  /**
   * The wire takes the clip itself and a display name; it has no time window, so the gateway's
   * `character_timestamps` are not sent and the whole clip makes the character (the client is told).
   */
  async createCharacter(clip, _upstreamModel, context) {
    const form = await toCharacterForm(clip.name, clip);
    const { payload } = await postForJsonObject(
      context,
      {
        url: compatVideosUrl(context.channel.baseUrl, '/characters'),
        headers: {
          authorization: `Bearer ${context.channel.credentials.apiKey}`,
          'content-type': form.contentType,
        },
        body: form.body,
      },
      classifyCompatError,
    );
    if (typeof payload.id !== 'string' || payload.id === '') throw malformedAnswerError(200);
    const warnings = clip.window
      ? [
          `character_timestamps ${clip.window.start}-${clip.window.end} was not sent: the upstream takes the whole clip and no time window`,
        ]
      : [];
    return {
      id: payload.id,
      name: typeof payload.name === 'string' ? payload.name : clip.name,
      createdAt:
        typeof payload.created_at === 'number' ? payload.created_at : Math.floor(context.clock.now() / 1000),
      warnings,
    };
  },
};
