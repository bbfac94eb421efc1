import { WireError } from '../scripted-error';
import { lambdaError } from './lambda-errors';

export type LambdaAction = 'music' | 'lyrics';

/** The models `mv` may name (upstreams.md §9.3); the first is the default. */
export const LAMBDA_MODELS = ['lambda-v3-0', 'lambda-v3-5', 'lambda-v4', 'lambda-v4-5', 'lambda-v5'];

/** A clip to continue: the task that made it, the clip, and where to continue from (seconds). */
export interface LambdaContinuation {
  taskId: string;
  clipId: string;
  at: number;
}

/** A submission the simulator accepted: the §9.3 fields it uses. */
export interface LambdaSubmission {
  action: LambdaAction;
  prompt: string;
  descriptionPrompt: string;
  title: string;
  tags: string;
  model: string;
  instrumental: boolean;
  continuation?: LambdaContinuation;
}

const STRING_FIELDS = ['prompt', 'description_prompt', 'title', 'tags', 'mv', 'continue_clip_id', 'task_id'];

/** `music` or `lyrics`, in any case (§9.2). */
export function lambdaActionOf(segment: string): LambdaAction | undefined {
  const action = segment.toLowerCase();
  return action === 'music' || action === 'lyrics' ? action : undefined;
}

/**
 * Checks a submit body by §9.3: the string fields are strings, `make_instrumental` a boolean, `mv` a
 * known model, `prompt` present for lyrics (music needs a prompt or a description), and a
 * continuation names `task_id`, `continue_clip_id` and a non-negative `continue_at` together. Whether
 * the clip exists is the handler's to check. A refusal is a 400 naming the field.
 */
export function toLambdaSubmission(
  action: LambdaAction,
  body: Record<string, unknown>,
): { submission: LambdaSubmission } | { refusal: WireError } {
  for (const field of STRING_FIELDS) {
    if (body[field] !== undefined && typeof body[field] !== 'string')
      return invalid(`${field} must be a string`);
  }
  const text = (field: string): string => (typeof body[field] === 'string' ? (body[field] as string) : '');
  if (body.make_instrumental !== undefined && typeof body.make_instrumental !== 'boolean') {
    return invalid('make_instrumental must be a boolean');
  }
  const model = text('mv') || LAMBDA_MODELS[0];
  if (!LAMBDA_MODELS.includes(model)) return invalid(`mv must be one of ${LAMBDA_MODELS.join(', ')}`);
  if (action === 'lyrics' && text('prompt').trim() === '') return invalid('prompt is required for lyrics');
  if (action === 'music' && text('prompt').trim() === '' && text('description_prompt').trim() === '') {
    return invalid('prompt or description_prompt is required for music');
  }
  const continuation = continuationOf(action, body);
  if (continuation !== undefined && 'refusal' in continuation) return continuation;
  return {
    submission: {
      action,
      prompt: text('prompt'),
      descriptionPrompt: text('description_prompt'),
      title: text('title'),
      tags: text('tags'),
      model,
      instrumental: body.make_instrumental === true,
      ...(continuation ? { continuation: continuation.continuation } : {}),
    },
  };
}

function continuationOf(
  action: LambdaAction,
  body: Record<string, unknown>,
): { continuation: LambdaContinuation } | { refusal: WireError } | undefined {
  const { continue_clip_id: clipId, continue_at: at, task_id: taskId } = body;
  if (clipId === undefined && at === undefined && taskId === undefined) return undefined;
  if (action !== 'music') return invalid('continue_clip_id applies to music only');
  if (typeof clipId !== 'string' || clipId === '') return invalid('continue_clip_id is required to continue');
  if (typeof taskId !== 'string' || taskId === '') return invalid('task_id is required when continuing');
  if (typeof at !== 'number' || !Number.isFinite(at) || at < 0) {
    return invalid('continue_at must be a non-negative number of seconds');
  }
  return { continuation: { taskId, clipId, at } };
}

function invalid(message: string): { refusal: WireError } {
  return { refusal: lambdaError(400, 'invalid_parameter', message) };
}
