/**
 * Builds function-call arguments that satisfy a JSON-schema-like `parameters` object: every required
 * property gets a sample of its type (string → "sample", number/integer → 1, boolean → true, the first
 * enum value when there is one). Type names are matched case-insensitively because the kappa wire
 * spells them `STRING`, `OBJECT` … while OpenAI-style schemas use lower case.
 */
export function sampleArgumentsFor(schema: unknown): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  if (!isRecord(schema)) return args;
  const properties = isRecord(schema['properties']) ? schema['properties'] : {};
  const required = Array.isArray(schema['required']) ? schema['required'] : [];
  for (const name of required) {
    if (typeof name === 'string') args[name] = sampleValueFor(properties[name]);
  }
  return args;
}

function sampleValueFor(schema: unknown): unknown {
  if (!isRecord(schema)) return 'sample';
  const choices = schema['enum'];
  if (Array.isArray(choices) && choices.length > 0) return choices[0];
  switch (typeNameOf(schema['type'])) {
    case 'number':
    case 'integer':
      return 1;
    case 'boolean':
      return true;
    case 'object':
      return sampleArgumentsFor(schema);
    case 'array':
      return schema['items'] === undefined ? [] : [sampleValueFor(schema['items'])];
    case 'null':
      return null;
    default:
      return 'sample';
  }
}

/** `type` may be one name or a list such as `["string", "null"]`; the first non-null name wins. */
function typeNameOf(type: unknown): string {
  if (typeof type === 'string') return type.toLowerCase();
  if (Array.isArray(type)) {
    const named = type.find((entry) => typeof entry === 'string' && entry.toLowerCase() !== 'null');
    return typeof named === 'string' ? named.toLowerCase() : 'null';
  }
  return 'string';
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
