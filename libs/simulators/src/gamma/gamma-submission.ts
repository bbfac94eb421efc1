import { isRecord } from '../sample-arguments.util';
import { GammaRefusal } from './gamma-errors';

/** What a `CreateAigcVideoTask` asked for, as the simulator keeps it (upstreams.md §5.4). */
export interface GammaSubmission {
  modelVersion: string;
  /** The body's fields but the caller's own (`SubAppId`, `SessionId`, …): the query's `Input`. */
  input: Record<string, unknown>;
  duration: number;
  resolution: '720P' | '1080P';
  aspectRatio: string;
  storageMode: 'Temporary' | 'Permanent';
  sessionId?: string;
  sessionContext: string;
}

type Checked<T> = { value: T } | { refusal: GammaRefusal };

const KNOWN_FIELDS: ReadonlySet<string> = new Set([
  'SubAppId',
  'ModelName',
  'ModelVersion',
  'Prompt',
  'NegativePrompt',
  'EnhancePrompt',
  'FileInfos',
  'LastFrameUrl',
  'LastFrameFileId',
  'OutputConfig',
  'SceneType',
  'ExtInfo',
  'SessionId',
  'SessionContext',
  'TasksPriority',
]);
const CALLER_FIELDS = ['SubAppId', 'SessionId', 'SessionContext', 'TasksPriority'];
/** `Duration` range by `ModelVersion` (§5.4); older versions take 5–10. */
const MAX_SECONDS: Readonly<Record<string, number>> = {
  '3.0-Omni': 15,
  '3.0': 10,
  '2.6': 10,
  '2.5': 10,
  '2.1': 10,
  '2.0': 10,
  '1.6': 10,
};
const MIN_SECONDS = 5;
const CLOSED_SETS: Readonly<Record<string, readonly string[]>> = {
  Resolution: ['720P', '1080P'],
  AspectRatio: ['16:9', '9:16', '1:1'],
  StorageMode: ['Temporary', 'Permanent'],
  AudioGeneration: ['Enabled', 'Disabled'],
  PersonGeneration: ['AllowAdult', 'Disallowed'],
  InputComplianceCheck: ['Enabled', 'Disabled'],
  OutputComplianceCheck: ['Enabled', 'Disabled'],
};
const SCENE_TYPES = ['motion_control', 'avatar_i2v', 'lip_sync', 'template_effect'];
const HTTP_URL = /^https?:\/\/\S+$/i;

/** Checks a create body as the wire does; the first rule broken is the refusal, naming the field. */
export function toGammaSubmission(body: Record<string, unknown>): Checked<GammaSubmission> {
  const unknown = Object.keys(body).find((key) => !KNOWN_FIELDS.has(key));
  if (unknown !== undefined)
    return invalid('InvalidParameter', `The parameter ${unknown} is not recognized.`);
  if (body['ModelName'] === undefined)
    return invalid('MissingParameter', 'The parameter ModelName is missing.');
  if (body['ModelName'] !== 'Gamma') return invalid('InvalidParameterValue', 'ModelName must be Gamma.');
  const modelVersion = body['ModelVersion'];
  if (typeof modelVersion !== 'string' || !Object.hasOwn(MAX_SECONDS, modelVersion)) {
    return invalid(
      'InvalidParameterValue',
      `ModelVersion must be one of ${Object.keys(MAX_SECONDS).join(', ')}.`,
    );
  }
  const files = checkFiles(body);
  if ('refusal' in files) return files;
  const prompt = body['Prompt'];
  if (prompt !== undefined && (typeof prompt !== 'string' || prompt.length > 2000)) {
    return invalid('InvalidParameterValue', 'Prompt must be a string of at most 2000 characters.');
  }
  if ((prompt === undefined || prompt === '') && files.value.images === 0) {
    return invalid('MissingParameter', 'Prompt is required when FileInfos has no image.');
  }
  const output = checkOutputConfig(body['OutputConfig'], modelVersion);
  if ('refusal' in output) return output;
  const rest = checkOtherFields(body);
  if ('refusal' in rest) return rest;
  const input: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) if (!CALLER_FIELDS.includes(key)) input[key] = value;
  return {
    value: {
      modelVersion,
      input,
      ...output.value,
      ...(typeof body['SessionId'] === 'string' ? { sessionId: body['SessionId'] } : {}),
      sessionContext: typeof body['SessionContext'] === 'string' ? body['SessionContext'] : '',
    },
  };
}

function checkFiles(body: Record<string, unknown>): Checked<{ images: number }> {
  const infos = body['FileInfos'] ?? [];
  if (!Array.isArray(infos) || infos.length > 3) {
    return invalid('InvalidParameterValue', 'FileInfos must be an array of at most 3 items.');
  }
  let images = 0;
  for (const [index, info] of infos.entries()) {
    const at = `FileInfos[${index}]`;
    if (!isRecord(info)) return invalid('InvalidParameterValue', `${at} must be an object.`);
    if (info['Type'] !== 'Url' && info['Type'] !== 'File') {
      return invalid('InvalidParameterValue', `${at}.Type must be File or Url.`);
    }
    if (info['Category'] !== 'Image' && info['Category'] !== 'Video') {
      return invalid('InvalidParameterValue', `${at}.Category must be Image or Video.`);
    }
    if (info['Type'] === 'Url' && !(typeof info['Url'] === 'string' && HTTP_URL.test(info['Url']))) {
      return invalid('InvalidParameterValue', `${at}.Url must be an http(s) URL.`);
    }
    if (info['Type'] === 'File' && !(typeof info['FileId'] === 'string' && info['FileId'] !== '')) {
      return invalid('MissingParameter', `${at}.FileId is required when Type is File.`);
    }
    const reference = info['ReferenceType'];
    if (reference !== undefined && reference !== 'feature' && reference !== 'base') {
      return invalid('InvalidParameterValue', `${at}.ReferenceType must be feature or base.`);
    }
    if (info['Category'] === 'Image') images += 1;
  }
  const lastFrame = body['LastFrameUrl'] ?? body['LastFrameFileId'];
  if (lastFrame !== undefined && (typeof lastFrame !== 'string' || lastFrame === '')) {
    return invalid('InvalidParameterValue', 'LastFrameUrl must be a URL.');
  }
  if (lastFrame !== undefined && images === 0) {
    return invalid('InvalidParameterValue', 'LastFrameUrl needs a first frame image in FileInfos.');
  }
  return { value: { images } };
}

type OutputFields = Pick<GammaSubmission, 'duration' | 'resolution' | 'aspectRatio' | 'storageMode'>;

function checkOutputConfig(config: unknown, modelVersion: string): Checked<OutputFields> {
  const output = config ?? {};
  if (!isRecord(output)) return invalid('InvalidParameterValue', 'OutputConfig must be an object.');
  for (const [field, allowed] of Object.entries(CLOSED_SETS)) {
    const value = output[field];
    if (value !== undefined && !allowed.includes(value as string)) {
      return invalid('InvalidParameterValue', `OutputConfig.${field} must be one of ${allowed.join(', ')}.`);
    }
  }
  const duration = output['Duration'] ?? MIN_SECONDS;
  const maxSeconds = MAX_SECONDS[modelVersion];
  if (typeof duration !== 'number' || !(duration >= MIN_SECONDS && duration <= maxSeconds)) {
    return invalid(
      'InvalidParameterValue',
      `OutputConfig.Duration must be between ${MIN_SECONDS} and ${maxSeconds} for ModelVersion ${modelVersion}.`,
    );
  }
  if (output['OffPeak'] !== undefined && typeof output['OffPeak'] !== 'boolean') {
    return invalid('InvalidParameterValue', 'OutputConfig.OffPeak must be a boolean.');
  }
  return {
    value: {
      duration,
      resolution: (output['Resolution'] as OutputFields['resolution'] | undefined) ?? '720P',
      aspectRatio: (output['AspectRatio'] as string | undefined) ?? '16:9',
      storageMode: (output['StorageMode'] as OutputFields['storageMode'] | undefined) ?? 'Temporary',
    },
  };
}

function checkOtherFields(body: Record<string, unknown>): Checked<true> {
  const scene = body['SceneType'];
  if (scene !== undefined && !SCENE_TYPES.includes(scene as string)) {
    return invalid('InvalidParameterValue', `SceneType must be one of ${SCENE_TYPES.join(', ')}.`);
  }
  const extInfo = body['ExtInfo'];
  if (extInfo !== undefined && !(typeof extInfo === 'string' && isJsonObjectText(extInfo))) {
    return invalid('InvalidParameterValue', 'ExtInfo must be a string holding a JSON object.');
  }
  const sessionId = body['SessionId'];
  if (
    sessionId !== undefined &&
    (typeof sessionId !== 'string' || sessionId === '' || sessionId.length > 50)
  ) {
    return invalid('InvalidParameterValue', 'SessionId must be a string of 1 to 50 characters.');
  }
  const context = body['SessionContext'];
  if (context !== undefined && (typeof context !== 'string' || context.length > 1000)) {
    return invalid('InvalidParameterValue', 'SessionContext must be a string of at most 1000 characters.');
  }
  const priority = body['TasksPriority'];
  if (priority !== undefined && !(Number.isInteger(priority) && Math.abs(priority as number) <= 10)) {
    return invalid('InvalidParameterValue', 'TasksPriority must be an integer from -10 to 10.');
  }
  return { value: true };
}

function isJsonObjectText(text: string): boolean {
  try {
    return isRecord(JSON.parse(text));
  } catch {
    return false;
  }
}

function invalid(code: string, message: string): { refusal: GammaRefusal } {
  return { refusal: { code, message } };
}
