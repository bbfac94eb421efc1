/** The JSON shapes a task row and a job hold; defined in providers-core, whose task adapters take them. */
export type { JsonHandle, JsonValue, SerialisableObject as JsonObject } from '@gateway/providers-core';
