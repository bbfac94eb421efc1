import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { GatewayHarness } from './gateway-harness';

interface MediaType {
  schema?: unknown;
}
interface Response {
  content?: Record<string, MediaType>;
}
interface Operation {
  responses: Record<string, Response>;
}
type OpenApiDocument = { paths: Record<string, Record<string, Operation>> };

const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch']);
const REPOSITORY_ROOT = join(__dirname, '../../..');

/** One generated type to check: `paths[path][method].responses[status].content[mediaType]`. */
interface AnswerType {
  label: string;
  expression: string;
}

describe('the OpenAPI document', () => {
  let harness: GatewayHarness;
  let document: OpenApiDocument;
  let workDirectory: string;

  beforeAll(async () => {
    harness = await GatewayHarness.start();
    document = (await harness.request<OpenApiDocument>('GET', '/docs/openapi.json')).body;
    workDirectory = mkdtempSync(join(tmpdir(), 'openapi-'));
  });
  afterAll(async () => {
    rmSync(workDirectory, { recursive: true, force: true });
    await harness.close();
  });

  it('passes redocly lint with the recommended rules: no error, no warning', () => {
    const documentFile = join(workDirectory, 'openapi.json');
    writeFileSync(documentFile, JSON.stringify(document));
    const lint = spawnSync(
      process.execPath,
      [
        require.resolve('@redocly/cli/bin/cli.js'),
        'lint',
        documentFile,
        `--config=${join(REPOSITORY_ROOT, 'redocly.yaml')}`,
        '--format=json',
      ],
      {
        encoding: 'utf8',
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      },
    );
    const report = JSON.parse(lint.stdout) as {
      totals: { errors: number; warnings: number };
      problems: { ruleId: string; message: string; location: { pointer?: string }[] }[];
    };
    const problems = report.problems.map(
      (problem) => `${problem.ruleId} at ${problem.location[0]?.pointer}: ${problem.message}`,
    );
    expect(problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });

  it('gives a generated client a real type for every answer and every error body', () => {
    const answers: AnswerType[] = [];
    const untyped: string[] = [];
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        if (!METHODS.has(method)) continue;
        const label = `${method.toUpperCase()} ${path}`;
        const statuses = Object.keys(operation.responses);
        if (!statuses.some((status) => status.startsWith('2'))) untyped.push(`${label}: no 2xx answer`);
        for (const errors of ['4XX', '5XX']) {
          if (!operation.responses[errors]?.content?.['application/json']) {
            untyped.push(`${label}: no ${errors} error body`);
          }
        }
        for (const status of statuses) {
          const content = operation.responses[status].content;
          // 204 is the one answer without a body.
          if (content === undefined) {
            if (status !== '204') untyped.push(`${label} ${status}: no content`);
            continue;
          }
          for (const mediaType of Object.keys(content)) {
            answers.push({
              label: `${label} ${status} ${mediaType}`,
              expression: `paths[${JSON.stringify(path)}][${JSON.stringify(method)}]['responses'][${JSON.stringify(status)}]['content'][${JSON.stringify(mediaType)}]`,
            });
          }
        }
      }
    }
    expect(untyped).toEqual([]);

    expect(vagueAnswers(generateClientTypes(), answers)).toEqual([]);
    // The routes whose answers were untyped before, among them.
    expect(answers.map((answer) => answer.label)).toEqual(
      expect.arrayContaining([
        'POST /v1/chat/completions 200 application/json',
        'POST /v1beta/models/{model}:generateContent 200 application/json',
        'GET /v1/models 200 application/json',
        'GET /v1beta/models 200 application/json',
        'POST /bt 200 application/json',
        'POST /delta/v1/characters 200 application/json',
        'POST /lambda/submit/{action} 200 application/json',
        'GET /lambda/fetch/{id} 200 application/json',
        'POST /v1/theta/asset/{action} 200 application/json',
      ]),
    );
  });

  /** The declarations openapi-typescript generates from the document. */
  function generateClientTypes(): string {
    const run = spawnSync(process.execPath, [join(__dirname, 'openapi-typescript.run.mjs')], {
      input: JSON.stringify(document),
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    if (run.status !== 0) throw new Error(`openapi-typescript failed: ${run.stderr}`);
    return run.stdout;
  }

  /**
   * The answers whose generated type says nothing: `any`, `unknown`, `never`, or an object without a
   * single property (`Record<string, never>`, `{ [key: string]: unknown }`), checked by the TypeScript
   * compiler on the generated declarations.
   */
  function vagueAnswers(generated: string, answers: readonly AnswerType[]): string[] {
    const file = join(workDirectory, 'client.ts');
    const probes = answers.map((answer, index) => `export type Answer${index} = ${answer.expression};`);
    writeFileSync(file, `${generated}\n${probes.join('\n')}\n`);
    const program = ts.createProgram([file], { strict: true, noEmit: true, skipLibCheck: true });
    const diagnostics = ts
      .getPreEmitDiagnostics(program)
      .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    expect(diagnostics).toEqual([]);
    const checker = program.getTypeChecker();
    const source = program.getSourceFile(file) as ts.SourceFile;
    const vague: string[] = [];
    source.forEachChild((node) => {
      if (!ts.isTypeAliasDeclaration(node) || !node.name.text.startsWith('Answer')) return;
      const type = checker.getTypeAtLocation(node.name);
      if (!saysSomething(checker, type)) {
        vague.push(
          `${answers[Number(node.name.text.slice('Answer'.length))].label}: ${checker.typeToString(type)}`,
        );
      }
    });
    return vague;
  }
});

/** A union says something when one of its members does; an object when it has a property. */
function saysSomething(checker: ts.TypeChecker, type: ts.Type): boolean {
  if (type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown | ts.TypeFlags.Never)) return false;
  if (type.isUnion()) return type.types.some((member) => saysSomething(checker, member));
  if (type.flags & ts.TypeFlags.Object) return checker.getPropertiesOfType(type).length > 0;
  return true;
}
