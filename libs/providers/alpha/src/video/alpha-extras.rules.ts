import type { JsonValue, SerialisableObject, VideoMode, VideoRequest } from '@gateway/providers-core';
import type { AlphaModelRules } from './alpha-models';
import { alphaRefusal, type AlphaRuled } from './alpha-refusal';

/** §3.7: `payload` is at most 1 048 576 characters. */
export const ALPHA_MAX_PAYLOAD_CHARACTERS = 1_048_576;
/** `seed` is a 32-bit signed integer on the wire; 0 asks for a random one. */
const MAX_SEED = 2_147_483_647;
const HTTP_URL = /^https?:\/\/\S+$/i;

type FieldCheck = (value: JsonValue) => string | undefined;

const boolean: FieldCheck = (value) => (typeof value === 'boolean' ? undefined : 'must be true or false');
const string: FieldCheck = (value) => (typeof value === 'string' ? undefined : 'must be a string');
const oneOf =
  (...allowed: string[]): FieldCheck =>
  (value) =>
    typeof value === 'string' && allowed.includes(value) ? undefined : `must be one of ${allowed.join(', ')}`;
const integerFrom =
  (min: number, max: number): FieldCheck =>
  (value) =>
    typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max
      ? undefined
      : `must be a whole number from ${min} to ${max}`;

/**
 * The §3.3 fields the family's routes pass through as the client wrote them (the interface's
 * reference-to-video request), each with its type and values. Checked here so that a wrong one is
 * the client's 400, not a task that fails upstream after money was held.
 */
const FIELD_CHECKS: Readonly<Record<string, FieldCheck>> = {
  audio: boolean,
  audio_type: oneOf('all', 'speech_only', 'sound_effect_only'),
  voice_id: string,
  is_rec: boolean,
  bgm: boolean,
  seed: integerFrom(0, MAX_SEED),
  off_peak: boolean,
  watermark: boolean,
  wm_position: integerFrom(1, 4),
  wm_url: (value) =>
    typeof value === 'string' && HTTP_URL.test(value) ? undefined : 'must be an http(s) URL',
  payload: (value) =>
    typeof value !== 'string'
      ? 'must be a string'
      : value.length > ALPHA_MAX_PAYLOAD_CHARACTERS
        ? `must be at most ${ALPHA_MAX_PAYLOAD_CHARACTERS} characters`
        : undefined,
  meta_data: (value) =>
    typeof value === 'string' && isJsonText(value) ? undefined : 'must be a JSON string',
  style: oneOf('general', 'anime'),
  movement_amplitude: oneOf('auto', 'small', 'medium', 'large'),
};

/** Fields the wire has but the gateway must not send: it polls, so the upstream calls nobody back. */
const WITHHELD_FIELDS: ReadonlySet<string> = new Set(['callback_url']);

/**
 * The extras to send: each known field checked, then dropped with a warning where the model or mode
 * ignores it (§3.3: `style` and `movement_amplitude` on q2/q3, `style` outside text2video, `bgm` and
 * `voice_id` on q3, `audio_type` without audio); `audio: true` is refused off q3. A combined billing
 * name's `offpeak` dimension sets `off_peak`. Unknown fields are dropped with a warning.
 */
export function alphaExtrasOf(
  request: VideoRequest,
  rules: AlphaModelRules,
  mode: VideoMode,
  warnings: string[],
): AlphaRuled<SerialisableObject> {
  const extras: SerialisableObject = {};
  for (const [field, value] of Object.entries(request.extras)) {
    if (value === null || value === undefined) continue;
    const check = Object.hasOwn(FIELD_CHECKS, field) ? FIELD_CHECKS[field] : undefined;
    if (!check) {
      const reason = WITHHELD_FIELDS.has(field) ? 'the gateway polls the task' : 'not a field of this family';
      warnings.push(`${field} is ignored: ${reason}`);
      continue;
    }
    const problem = check(value);
    if (problem) return alphaRefusal(field, `${field} ${problem}`);
    extras[field] = value;
  }
  if (extras.audio === true && !rules.audio) {
    return alphaRefusal('audio', `audio must be false for ${rules.name}: only q3 models generate audio`);
  }
  const offPeak = offPeakOf(request, extras);
  if (!offPeak.ok) return offPeak;
  dropIneffective(extras, rules, mode, warnings);
  return { ok: true, value: extras };
}

function offPeakOf(request: VideoRequest, extras: SerialisableObject): AlphaRuled<void> {
  if (request.dimensions['offpeak'] !== 'true') return { ok: true, value: undefined };
  if (extras.off_peak === false)
    return alphaRefusal('off_peak', 'off_peak must be true: the model name fixes it');
  extras.off_peak = true;
  return { ok: true, value: undefined };
}

function dropIneffective(
  extras: SerialisableObject,
  rules: AlphaModelRules,
  mode: VideoMode,
  warnings: string[],
): void {
  const drop = (field: string, reason: string): void => {
    if (!(field in extras)) return;
    delete extras[field];
    warnings.push(`${field} is ignored: ${reason}`);
  };
  if (!rules.honoursStyle) {
    drop('style', `it has no effect on ${rules.name}`);
    drop('movement_amplitude', `it has no effect on ${rules.name}`);
  } else if (mode !== 'text') {
    drop('style', 'it applies to text-to-video only');
  }
  if (!rules.bgm) drop('bgm', `${rules.name} has no background music option`);
  if (!rules.voice) drop('voice_id', `it has no effect on ${rules.name}`);
  if (!rules.audio || extras.audio === false) drop('audio_type', 'it applies to videos with audio only');
  if (!rules.audio) delete extras.audio;
}

function isJsonText(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
