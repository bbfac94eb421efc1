/** A value that survives JSON.stringify / JSON.parse unchanged: what a task row and a job may hold. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** Non-null JSON: a stored upstream handle is never null, so that "no handle yet" stays unambiguous. */
export type JsonHandle = Exclude<JsonValue, null>;

/** An object of JSON values: a task's normalised request, as stored on its row. */
export type SerialisableObject = { [key: string]: JsonValue };
