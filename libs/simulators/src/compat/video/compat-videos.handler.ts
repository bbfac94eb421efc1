import { bearerKeyOf } from '../../bearer-key.util';
import { sendBytesWithRange } from '../../byte-range.util';
import { Directives } from '../../directives';
import { parseJsonObject } from '../../json-body.util';
import { readMultipartForm, summariseForm } from '../../multipart-form.util';
import { sendJson, sendWireError } from '../../raw-response.util';
import { WireError } from '../../scripted-error';
import { WirePreamble, runPreamble } from '../../simulated-preamble';
import { SimulatedCall, SimulatedHandler } from '../../simulated-route';
import { SimulatorSettings } from '../../simulator-options';
import { SimulatorState } from '../../simulator-state';
import { compatCredentialFailure } from '../compat-auth';
import {
  compatError,
  compatInvalidJson,
  compatInvalidValue,
  compatMissingParameter,
  compatModelNotFound,
  compatScriptedError,
} from '../compat-errors';
import { sendVideoObject, videoViewOf } from './compat-video-answer';
import { VIDEO_VARIANTS, VideoVariant, videoVariantContent } from './compat-video-bytes.util';
import { videoModerationRefusal, videoNotCompleted, videoNotFound } from './compat-video-errors';
import { compatVideoRulesOf } from './compat-video-models';
import { toDeletedVideo, toVideoObject } from './compat-video-object.builder';
import { compatVideoPlanOf } from './compat-video-plan';
import { CompatVideo, CompatVideoNewFields } from './compat-video.store';
import { toFormVideoCreate, toJsonVideoCreate } from './compat-video-request';

const DEFAULT_LIST_LIMIT = 20;
const MAX_LIST_LIMIT = 100;

/** What each route of the videos wire starts with: the key, then any failure scripted for the call. */
interface VideoCall {
  call: SimulatedCall;
  owner: string;
  directives: Directives;
}

/**
 * `error=<class>` fails the call itself, except with `error_after=`: then a create makes a video that
 * fails later, and every other route ignores it (a channel's base URL scripts all its calls).
 */
function videoPreamble(settings: SimulatorSettings): WirePreamble {
  return {
    credentialFailure: (call) => compatCredentialFailure(call, settings.compatKeys),
    scriptedError: compatScriptedError,
    handlesItself: (_scripted, directives) => directives.errorAfter !== undefined,
  };
}

async function openVideoCall(
  call: SimulatedCall,
  settings: SimulatorSettings,
): Promise<VideoCall | undefined> {
  const directives = await runPreamble(call, videoPreamble(settings));
  const owner = bearerKeyOf(call.request.headers);
  return directives && owner ? { call, owner, directives } : undefined;
}

const idOf = (call: SimulatedCall): string => (call.request.params as { id: string }).id;

/**
 * `POST /v1/videos` (upstreams.md §2.4), JSON or multipart. An `Idempotency-Key` header makes it
 * idempotent: the same key (for the same API key) answers the video the first create made.
 */
export function compatVideoCreateHandler(
  settings: SimulatorSettings,
  state: SimulatorState,
): SimulatedHandler {
  return async (call) => {
    state.stats.countRoute('compat:videoCreate');
    let parse: () => ReturnType<typeof toJsonVideoCreate>;
    let scriptText = call.rawBody;
    if (call.request.isMultipart()) {
      const read = await readMultipartForm(call.request);
      if ('form' in read) {
        call.exchange.recordForm(summariseForm(read.form));
        scriptText = Object.values(read.form.fields).flat().join('\n');
        parse = () => toFormVideoCreate(read.form);
      } else {
        const { status, message } = read.failure;
        parse = () => compatError(status, message, 'invalid_request_error', null);
      }
    } else {
      const body = parseJsonObject(call.rawBody);
      parse = () => (body ? toJsonVideoCreate(body) : compatInvalidJson());
    }
    const opened = await openVideoCall({ ...call, rawBody: scriptText }, settings);
    if (!opened) return;
    const parsed = parse();
    if ('status' in parsed) return sendWireError(call.response, parsed);
    if (opened.directives.block === 'prompt') {
      return sendWireError(call.response, videoModerationRefusal(parsed.model, opened.directives.code));
    }
    createVideo(opened, state, settings, {
      owner: opened.owner,
      model: parsed.model,
      prompt: parsed.prompt,
      seconds: parsed.seconds,
      size: parsed.size,
      remixedFromVideoId: null,
      plan: compatVideoPlanOf(opened.directives),
    });
  };
}

/** `POST /v1/videos/{id}/remix`: JSON `{prompt}` (+ `model` on relays) → a new video from a completed one. */
export function compatVideoRemixHandler(
  settings: SimulatorSettings,
  state: SimulatorState,
): SimulatedHandler {
  return async (call) => {
    state.stats.countRoute('compat:videoRemix');
    const opened = await openVideoCall(call, settings);
    if (!opened) return;
    const source = state.compatVideos.find(opened.owner, idOf(call));
    if (!source) return sendWireError(call.response, videoNotFound(idOf(call)));
    const body = parseJsonObject(call.rawBody);
    if (!body) return sendWireError(call.response, compatInvalidJson());
    const prompt = body['prompt'];
    if (typeof prompt !== 'string' || prompt === '') {
      return sendWireError(call.response, compatMissingParameter('prompt'));
    }
    if (source.state !== 'completed')
      return sendWireError(call.response, videoNotCompleted(source.id, 'remix'));
    const model = typeof body['model'] === 'string' ? body['model'] : source.model;
    if (!compatVideoRulesOf(model)) return sendWireError(call.response, compatModelNotFound(model));
    if (opened.directives.block === 'prompt') {
      return sendWireError(call.response, videoModerationRefusal(model, opened.directives.code));
    }
    createVideo(opened, state, settings, {
      owner: opened.owner,
      model,
      prompt,
      seconds: source.seconds,
      size: source.size,
      remixedFromVideoId: source.id,
      plan: compatVideoPlanOf(opened.directives),
    });
  };
}

function createVideo(
  opened: VideoCall,
  state: SimulatorState,
  settings: SimulatorSettings,
  fields: CompatVideoNewFields,
): void {
  const header = opened.call.request.headers['idempotency-key'];
  const key = Array.isArray(header) ? header[0] : header;
  const video = key
    ? state.compatVideos.createIdempotently(key, fields).video
    : state.compatVideos.createOnce(fields);
  sendVideoObject(opened.call, state, settings, video, opened.directives);
}

/** `GET /v1/videos/{id}`: each retrieve moves the video along its scripted life. */
export function compatVideoRetrieveHandler(
  settings: SimulatorSettings,
  state: SimulatorState,
): SimulatedHandler {
  return withOwnVideo(settings, state, 'compat:videoRetrieve', (opened, video) => {
    state.compatVideos.advance(video);
    sendVideoObject(opened.call, state, settings, video, opened.directives);
  });
}

/** `GET /v1/videos/{id}/content?variant=video|thumbnail|spritesheet`, with `Range`. */
export function compatVideoContentHandler(
  settings: SimulatorSettings,
  state: SimulatorState,
): SimulatedHandler {
  return withOwnVideo(settings, state, 'compat:videoContent', ({ call }, video) => {
    const requested = (call.request.query as { variant?: string }).variant ?? 'video';
    if (!(VIDEO_VARIANTS as readonly string[]).includes(requested)) {
      return sendWireError(
        call.response,
        compatInvalidValue(
          'variant',
          `Invalid value: '${requested}'. Supported values are: ${VIDEO_VARIANTS.join(', ')}.`,
        ),
      );
    }
    if (video.state !== 'completed')
      return sendWireError(call.response, videoNotCompleted(video.id, 'download'));
    const content = videoVariantContent(requested as VideoVariant, video.size);
    sendBytesWithRange(call.response, call.request, content.bytes, { 'content-type': content.contentType });
  });
}

/** `DELETE /v1/videos/{id}`: cancels an unfinished video (it stays readable as cancelled), removes a finished one. */
export function compatVideoDeleteHandler(
  settings: SimulatorSettings,
  state: SimulatorState,
): SimulatedHandler {
  return withOwnVideo(settings, state, 'compat:videoDelete', ({ call, owner }, video) => {
    state.compatVideos.delete(owner, video.id);
    sendJson(call.response, 200, toDeletedVideo(video.id));
  });
}

/** `GET /v1/videos?after=&limit=&order=asc|desc`: the key's videos, newest first by default. */
export function compatVideoListHandler(settings: SimulatorSettings, state: SimulatorState): SimulatedHandler {
  return async (call) => {
    state.stats.countRoute('compat:videoList');
    const opened = await openVideoCall(call, settings);
    if (!opened) return;
    const query = call.request.query as { after?: string; limit?: string; order?: string };
    const limit = query.limit === undefined ? DEFAULT_LIST_LIMIT : Number(query.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIST_LIMIT) {
      return sendWireError(call.response, listRefusal('limit', `an integer from 1 to ${MAX_LIST_LIMIT}`));
    }
    const order = query.order ?? 'desc';
    if (order !== 'asc' && order !== 'desc')
      return sendWireError(call.response, listRefusal('order', "'asc' or 'desc'"));
    const page = state.compatVideos.list(opened.owner, { after: query.after, limit, order });
    const data = page.videos.map((video) =>
      toVideoObject(video, {
        ...videoViewOf(video, opened.directives, settings),
        // Listing hands out no new links; a live one is shown.
        link: video.link && Date.now() < video.link.expiresAtMs ? video.link : undefined,
      }),
    );
    sendJson(call.response, 200, {
      object: 'list',
      data,
      first_id: page.videos[0]?.id ?? null,
      last_id: page.videos[page.videos.length - 1]?.id ?? null,
      has_more: page.hasMore,
    });
  };
}

function listRefusal(param: string, expected: string): WireError {
  return compatInvalidValue(param, `Invalid '${param}': expected ${expected}.`);
}

function withOwnVideo(
  settings: SimulatorSettings,
  state: SimulatorState,
  route: string,
  answer: (opened: VideoCall, video: CompatVideo) => void,
): SimulatedHandler {
  return async (call) => {
    state.stats.countRoute(route);
    const opened = await openVideoCall(call, settings);
    if (!opened) return;
    const video = state.compatVideos.find(opened.owner, idOf(call));
    if (!video) return sendWireError(call.response, videoNotFound(idOf(call)));
    answer(opened, video);
  };
}
