import { Directives } from '../../directives';
import { sendJson } from '../../raw-response.util';
import { SimulatedCall } from '../../simulated-route';
import { SimulatorSettings } from '../../simulator-options';
import { SimulatorState } from '../../simulator-state';
import { currentVideoLink } from '../../video-result-link.util';
import { VideoObjectView, toVideoObject } from './compat-video-object.builder';
import { CompatVideo } from './compat-video.store';

/**
 * How a video is shown: the status words and placement of this call's directives, else those of its
 * create, else the first-party words and the simulator's placement option.
 */
export function videoViewOf(
  video: CompatVideo,
  directives: Directives,
  settings: SimulatorSettings,
): Required<Pick<VideoObjectView, 'words' | 'placement'>> {
  return {
    words: { ...video.plan.statusWords, ...directives.statusWords },
    placement: directives.placement ?? video.plan.placement ?? settings.videoPlacement,
  };
}

/**
 * Answers with the video object. A completed video on a URL placement gets a result link: the
 * current one while it lives, else a fresh one (the first `expired_links` are born expired), so a
 * re-retrieve after a link expired hands out a new link.
 */
export function sendVideoObject(
  call: SimulatedCall,
  state: SimulatorState,
  settings: SimulatorSettings,
  video: CompatVideo,
  directives: Directives,
): void {
  const view = videoViewOf(video, directives, settings);
  const link =
    video.state === 'completed' && view.placement !== 'content-only'
      ? currentVideoLink(call.request, state.files, video, {
          ...video.plan,
          resultHost: directives.resultHost ?? video.plan.resultHost,
        })
      : undefined;
  sendJson(call.response, 200, toVideoObject(video, { ...view, link }));
}
