import { isRecord, sampleArgumentsFor } from '../sample-arguments.util';
import { tokensForCharacters } from '../tokens.util';
import { KappaImageConfig } from './kappa-image';

/**
 * The fields of a generation request the simulator acts on, read tolerantly: each field is accepted
 * in camelCase and in snake_case, as the wire does. User-defined names inside schemas and arguments
 * are never renamed.
 */
export interface KappaRequestView {
  contents: unknown;
  systemInstruction: unknown;
  generationConfig: Record<string, unknown>;
  tools: unknown[];
  toolConfig: Record<string, unknown>;
}

export interface ModalityTokenCount {
  modality: string;
  tokenCount: number;
}

export interface KappaFunctionCall {
  name: string;
  args: Record<string, unknown>;
}

/** Fixed cost of one inline or file media part (project convention). */
export const MEDIA_PART_TOKENS = 258;
const VALID_ROLES = new Set(['user', 'model']);

export function toKappaRequestView(body: Record<string, unknown>): KappaRequestView {
  return {
    contents: body['contents'],
    systemInstruction: field(body, 'systemInstruction', 'system_instruction'),
    generationConfig: recordOrEmpty(field(body, 'generationConfig', 'generation_config')),
    tools: Array.isArray(body['tools']) ? body['tools'] : [],
    toolConfig: recordOrEmpty(field(body, 'toolConfig', 'tool_config')),
  };
}

/** The wire's INVALID_ARGUMENT message for a malformed request, or undefined when it is acceptable. */
export function invalidKappaRequestReason(view: KappaRequestView): string | undefined {
  if (!Array.isArray(view.contents) || view.contents.length === 0) {
    return '* GenerateContentRequest.contents: contents is not specified';
  }
  for (const content of view.contents) {
    if (!isRecord(content)) return '* GenerateContentRequest.contents: each content must be an object';
    const role = content['role'];
    if (role !== undefined && (typeof role !== 'string' || !VALID_ROLES.has(role))) {
      return 'Please use a valid role: user, model.';
    }
    const parts = content['parts'];
    if (!Array.isArray(parts) || parts.length === 0) {
      return '* GenerateContentRequest.contents.parts: contents.parts must not be empty.';
    }
  }
  return undefined;
}

/** Prompt tokens by modality: text at four characters a token, each media part at a fixed cost. */
export function countKappaPrompt(view: KappaRequestView): ModalityTokenCount[] {
  const tally = { characters: 0, media: new Map<string, number>() };
  for (const content of view.contents as unknown[]) {
    if (isRecord(content)) tallyParts(content['parts'], tally);
  }
  if (typeof view.systemInstruction === 'string') tally.characters += view.systemInstruction.length;
  else if (isRecord(view.systemInstruction)) tallyParts(view.systemInstruction['parts'], tally);
  const textTokens = tokensForCharacters(tally.characters) + (tally.media.get('TEXT') ?? 0);
  const details: ModalityTokenCount[] = [{ modality: 'TEXT', tokenCount: textTokens }];
  for (const [modality, tokenCount] of tally.media) {
    if (modality !== 'TEXT') details.push({ modality, tokenCount });
  }
  return details;
}

export function responseModalitiesOf(view: KappaRequestView): string[] {
  const modalities = field(view.generationConfig, 'responseModalities', 'response_modalities');
  return Array.isArray(modalities) ? modalities.map((modality) => String(modality).toUpperCase()) : [];
}

export function maxOutputTokensOf(view: KappaRequestView): number | undefined {
  const max = field(view.generationConfig, 'maxOutputTokens', 'max_output_tokens');
  return typeof max === 'number' && max > 0 ? max : undefined;
}

export function includeThoughtsOf(view: KappaRequestView): boolean {
  const thinking = recordOrEmpty(field(view.generationConfig, 'thinkingConfig', 'thinking_config'));
  return field(thinking, 'includeThoughts', 'include_thoughts') === true;
}

export function imageConfigOf(view: KappaRequestView): KappaImageConfig {
  const config = recordOrEmpty(field(view.generationConfig, 'imageConfig', 'image_config'));
  const aspectRatio = field(config, 'aspectRatio', 'aspect_ratio');
  const imageSize = field(config, 'imageSize', 'image_size');
  return {
    aspectRatio: typeof aspectRatio === 'string' ? aspectRatio : undefined,
    imageSize: typeof imageSize === 'string' ? imageSize : undefined,
  };
}

/**
 * The call the model must make: the scripted `tool=` function, else — with function-calling mode ANY —
 * the first allowed declared function. Arguments are samples built from the declared schema.
 */
export function forcedFunctionCallOf(
  view: KappaRequestView,
  scriptedTool: string | undefined,
): KappaFunctionCall | undefined {
  const declarations = functionDeclarationsOf(view);
  if (scriptedTool !== undefined) {
    const declared = declarations.find((declaration) => declaration['name'] === scriptedTool);
    return { name: scriptedTool, args: sampleArgumentsFor(parametersOf(declared)) };
  }
  if (declarations.length === 0) return undefined;
  const calling = recordOrEmpty(field(view.toolConfig, 'functionCallingConfig', 'function_calling_config'));
  if (String(calling['mode']).toUpperCase() !== 'ANY') return undefined;
  const allowed = field(calling, 'allowedFunctionNames', 'allowed_function_names');
  const chosen =
    (Array.isArray(allowed) && declarations.find((declaration) => allowed.includes(declaration['name']))) ||
    declarations[0];
  return { name: String(chosen['name']), args: sampleArgumentsFor(parametersOf(chosen)) };
}

/** Reads `record[camel]`, falling back to `record[snake]`. */
export function field(record: Record<string, unknown>, camel: string, snake: string): unknown {
  const value = record[camel];
  return value === undefined ? record[snake] : value;
}

function functionDeclarationsOf(view: KappaRequestView): Array<Record<string, unknown>> {
  const declarations: Array<Record<string, unknown>> = [];
  for (const tool of view.tools) {
    if (!isRecord(tool)) continue;
    const declared = field(tool, 'functionDeclarations', 'function_declarations');
    if (!Array.isArray(declared)) continue;
    for (const declaration of declared) {
      if (isRecord(declaration) && typeof declaration['name'] === 'string') declarations.push(declaration);
    }
  }
  return declarations;
}

function parametersOf(declaration: Record<string, unknown> | undefined): unknown {
  if (!declaration) return undefined;
  return declaration['parameters'] ?? field(declaration, 'parametersJsonSchema', 'parameters_json_schema');
}

interface PromptTally {
  characters: number;
  media: Map<string, number>;
}

function tallyParts(parts: unknown, tally: PromptTally): void {
  if (!Array.isArray(parts)) return;
  for (const part of parts) {
    if (!isRecord(part)) continue;
    if (typeof part['text'] === 'string') {
      tally.characters += part['text'].length;
      continue;
    }
    const media = field(part, 'inlineData', 'inline_data') ?? field(part, 'fileData', 'file_data');
    if (isRecord(media)) {
      const modality = modalityOf(field(media, 'mimeType', 'mime_type'));
      tally.media.set(modality, (tally.media.get(modality) ?? 0) + MEDIA_PART_TOKENS);
      continue;
    }
    const call =
      field(part, 'functionCall', 'function_call') ?? field(part, 'functionResponse', 'function_response');
    if (call !== undefined) tally.characters += JSON.stringify(call).length;
  }
}

function modalityOf(mimeType: unknown): string {
  const type = typeof mimeType === 'string' ? mimeType : '';
  if (type.startsWith('image/')) return 'IMAGE';
  if (type.startsWith('audio/')) return 'AUDIO';
  if (type.startsWith('video/')) return 'VIDEO';
  return 'TEXT';
}

function recordOrEmpty(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {};
}
