import type * as ClassValidator from 'class-validator';

// perf-machinery: class-validator-parts (docs/performance-machinery.md)
/**
 * The parts of class-validator the project uses, each loaded from its own module. The package's
 * index loads every decorator it has, and with them validator.js's 60-odd checks and
 * libphonenumber-js with its full metadata (for `IsPhoneNumber`): about 3 MiB of heap and 0.2 s of
 * CPU at every start of a gateway or worker, none of which a request uses. The package declares no
 * `exports`, so its modules are public paths; their types are the index's own. Source files import
 * class-validator from here (ESLint refuses the index elsewhere); tests may use the index.
 */
type Parts = typeof ClassValidator;

function partOf<Name extends keyof Parts>(path: string, name: Name): Parts[Name] {
  // A deep module of a CommonJS package, chosen by path: `import` would need a declaration per path.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const part = (require(`class-validator/cjs/${path}`) as Parts)[name];
  // A release that moves a part fails every start here, by name, not at its first use.
  if (part === undefined) throw new Error(`class-validator has no ${name} in cjs/${path}`);
  return part;
}

export type { ValidationArguments, ValidatorOptions } from 'class-validator';
export type ValidationError = ClassValidator.ValidationError;

export const IsOptional = partOf('decorator/common/IsOptional', 'IsOptional');
export const IsUrl = partOf('decorator/string/IsUrl', 'IsUrl');
export const isURL = partOf('decorator/string/IsUrl', 'isURL');
export const isBase64 = partOf('decorator/string/IsBase64', 'isBase64');
export const isISO8601 = partOf('decorator/string/IsISO8601', 'isISO8601');
export const Matches = partOf('decorator/string/Matches', 'Matches');
export const ValidateBy = partOf('decorator/common/ValidateBy', 'ValidateBy');
export const ValidateIf = partOf('decorator/common/ValidateIf', 'ValidateIf');
export const ValidateNested = partOf('decorator/common/ValidateNested', 'ValidateNested');
export const registerDecorator = partOf('register-decorator', 'registerDecorator');
export const getMetadataStorage = partOf('metadata/MetadataStorage', 'getMetadataStorage');
export const ValidationTypes = partOf('validation/ValidationTypes', 'ValidationTypes');

const getFromContainer = partOf('container', 'getFromContainer');
const Validator = partOf('validation/Validator', 'Validator');

/** class-validator's `validateSync` of an object, as its index defines it (the container's Validator). */
export function validateSync(object: object, options?: ClassValidator.ValidatorOptions): ValidationError[] {
  return getFromContainer(Validator).validateSync(object, options);
}
