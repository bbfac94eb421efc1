import type { ValidationError } from '@gateway/providers-core';

/** One thing wrong with a request, at the path of the field as written on the wire. */
export interface FieldProblem {
  /** `contents[0].parts[1].inlineData.mimeType`; `(body)` for the body as a whole. */
  field: string;
  /** A sentence fragment that starts with the field: `generationConfig.temperature must be a number`. */
  message: string;
}

export const WHOLE_BODY_FIELD = '(body)';

/** A problem that starts with a relative path (`[1].url must be a string`) names a part of its field. */
const RELATIVE_PROBLEM = /^((?:\[\d+\]|\["(?:[^"\\]|\\.)*"\]|\.[A-Za-z_$][\w$]*)+) ([\s\S]*)$/;

/** Messages of class-validator's own checks, reworded to match the messages of the rules. */
const BUILT_IN_MESSAGES: Record<string, string> = {
  nestedValidation: 'must be an object',
  whitelistValidation: 'is not a known field',
};

function childPath(parentPath: string, property: string, parentIsList: boolean): string {
  if (property === '') return parentPath;
  if (parentIsList) return `${parentPath}[${property}]`;
  return parentPath === '' ? property : `${parentPath}.${property}`;
}

/** The problem `problem` (a fragment, possibly starting with a relative path) of the field at `path`. */
export function toProblem(path: string, problem: string): FieldProblem {
  const relative = RELATIVE_PROBLEM.exec(problem);
  const joinedPath = relative ? `${path}${relative[1]}` : path;
  const field = joinedPath === '' ? WHOLE_BODY_FIELD : joinedPath.replace(/^\./, '');
  return { field, message: `${field} ${relative ? relative[2] : problem}` };
}

function collect(
  errors: ValidationError[],
  parentPath: string,
  parentIsList: boolean,
  into: FieldProblem[],
): void {
  for (const error of errors) {
    const path = childPath(parentPath, error.property, parentIsList);
    // One rule per field and `stopAtFirstError` leave at most one constraint that matters.
    const [type, message] = Object.entries(error.constraints ?? {})[0] ?? [];
    if (type !== undefined && message !== undefined)
      into.push(toProblem(path, BUILT_IN_MESSAGES[type] ?? message));
    if (error.children?.length) collect(error.children, path, Array.isArray(error.value), into);
  }
}

/** Flattens class-validator's error tree into wire paths with array indexes. */
export function toFieldProblems(errors: ValidationError[]): FieldProblem[] {
  const problems: FieldProblem[] = [];
  collect(errors, '', false, problems);
  return problems;
}
