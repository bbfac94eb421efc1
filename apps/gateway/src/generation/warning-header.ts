/**
 * What the gateway changed on the way (a translation rule, a size fallback, a dropped field) travels
 * back in one header, so a client sees, for example, that its safety settings could not be forwarded
 * to an OpenAI-style channel. Header values are ASCII: anything else becomes `?`.
 */
export function warningHeader(warnings: readonly string[]): Record<string, string> {
  return warnings.length === 0
    ? {}
    : { 'x-gateway-warning': warnings.join(' | ').replace(/[^\x20-\x7e]/g, '?') };
}
