import { bearerKeyOf } from '../../bearer-key.util';
import { MultipartForm, readMultipartForm, summariseForm } from '../../multipart-form.util';
import { sendJson, sendWireError } from '../../raw-response.util';
import { WireError } from '../../scripted-error';
import { runPreamble } from '../../simulated-preamble';
import { SimulatedHandler } from '../../simulated-route';
import { SimulatorSettings } from '../../simulator-options';
import { SimulatorState } from '../../simulator-state';
import { compatCredentialFailure } from '../compat-auth';
import {
  compatError,
  compatInvalidValue,
  compatMissingParameter,
  compatScriptedError,
} from '../compat-errors';
import { characterNotFound } from './compat-video-errors';
import { toCharacterObject } from './compat-video-object.builder';

const MP4_BRAND_OFFSET = 4;
const WEBM_MAGIC = Buffer.from([0x1a, 0x45, 0xdf, 0xa3]);

/** `POST /v1/videos/characters` (upstreams.md §2.4): multipart `name` and a short `video` clip. */
export function compatCharacterCreateHandler(
  settings: SimulatorSettings,
  state: SimulatorState,
): SimulatedHandler {
  return async (call) => {
    state.stats.countRoute('compat:characterCreate');
    const read = await readMultipartForm(call.request);
    if ('form' in read) call.exchange.recordForm(summariseForm(read.form));
    const scriptText = 'form' in read ? Object.values(read.form.fields).flat().join('\n') : '';
    const directives = await runPreamble(
      { ...call, rawBody: scriptText },
      {
        credentialFailure: (current) => compatCredentialFailure(current, settings.compatKeys),
        scriptedError: compatScriptedError,
      },
    );
    const owner = bearerKeyOf(call.request.headers);
    if (!directives || !owner) return;
    if ('failure' in read) {
      const { status, message } = read.failure;
      return sendWireError(call.response, compatError(status, message, 'invalid_request_error', null));
    }
    const checked = characterFieldsOf(read.form);
    if ('status' in checked) return sendWireError(call.response, checked);
    sendJson(call.response, 200, toCharacterObject(state.compatVideos.createCharacter(owner, checked.name)));
  };
}

/** `GET /v1/videos/characters/{character_id}`. */
export function compatCharacterRetrieveHandler(
  settings: SimulatorSettings,
  state: SimulatorState,
): SimulatedHandler {
  return async (call) => {
    state.stats.countRoute('compat:characterRetrieve');
    const directives = await runPreamble(call, {
      credentialFailure: (current) => compatCredentialFailure(current, settings.compatKeys),
      scriptedError: compatScriptedError,
    });
    const owner = bearerKeyOf(call.request.headers);
    if (!directives || !owner) return;
    const { characterId } = call.request.params as { characterId: string };
    const character = state.compatVideos.findCharacter(owner, characterId);
    if (!character) return sendWireError(call.response, characterNotFound(characterId));
    sendJson(call.response, 200, toCharacterObject(character));
  };
}

function characterFieldsOf(form: MultipartForm): { name: string } | WireError {
  const nameField = form.fields['name'];
  const name = Array.isArray(nameField) ? nameField[0] : nameField;
  if (!name) return compatMissingParameter('name');
  const clip = form.files.find((file) => file.field === 'video');
  if (!clip) return compatMissingParameter('video');
  if (!looksLikeVideo(clip.bytes)) {
    return compatInvalidValue(
      'video',
      `Invalid file '${clip.filename}': expected an MP4, MOV or WebM video.`,
    );
  }
  return { name };
}

/** ISO BMFF (`ftyp` box first: MP4, MOV) or Matroska/WebM (EBML magic). */
function looksLikeVideo(bytes: Buffer): boolean {
  return (
    bytes.toString('ascii', MP4_BRAND_OFFSET, MP4_BRAND_OFFSET + 4) === 'ftyp' ||
    bytes.subarray(0, WEBM_MAGIC.length).equals(WEBM_MAGIC)
  );
}
