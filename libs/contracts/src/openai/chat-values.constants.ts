/** Value sets of the OpenAI-style chat completion request (upstreams.md §2.2). */

export const CHAT_ROLES = ['system', 'developer', 'user', 'assistant', 'tool'] as const;
export type ChatRole = (typeof CHAT_ROLES)[number];

export const CHAT_CONTENT_PART_TYPES = ['text', 'image_url'] as const;

export const IMAGE_DETAILS = ['auto', 'low', 'high'] as const;

export const TOOL_CHOICE_MODES = ['auto', 'none', 'required'] as const;
export type ToolChoiceMode = (typeof TOOL_CHOICE_MODES)[number];

export const RESPONSE_FORMAT_TYPES = ['text', 'json_object', 'json_schema'] as const;
export type ResponseFormatType = (typeof RESPONSE_FORMAT_TYPES)[number];
