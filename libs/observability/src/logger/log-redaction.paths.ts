/** Header names whose values are credentials. */
const CREDENTIAL_HEADERS = [
  'authorization',
  'x-vendor-api-key',
  'cookie',
  'set-cookie',
  'proxy-authorization',
];

/** Field names that hold credentials wherever they appear (top level or one object down). */
const CREDENTIAL_FIELDS = [
  'secret',
  /** A channel connection's parsed secret (`connection.credentials`, `channel.credentials`). */
  'credentials',
  'key',
  'apiKey',
  'api_key',
  'token',
  'adminToken',
  'password',
  'authorization',
  'masterKey',
  'plaintext',
  'secretCiphertext',
];

const HEADER_CONTAINERS = ['headers', 'req.headers', 'res.headers', '*.headers'];

/** Paths for pino's `redact` option: the values at these paths are censored before serialisation. */
export const LOG_REDACTION_PATHS: readonly string[] = [
  ...HEADER_CONTAINERS.flatMap((container) =>
    CREDENTIAL_HEADERS.map((header) => `${container}["${header}"]`),
  ),
  ...CREDENTIAL_FIELDS.flatMap((field) => [field, `*.${field}`]),
];
