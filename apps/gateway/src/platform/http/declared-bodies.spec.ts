import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Body, Controller, Post, Req, RequestMethod, type Type } from '@nestjs/common';
import { CONTROLLER_WATERMARK, METHOD_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { ApiBody, DECORATORS } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { bodyDeclarationOf, DeclaresBody, RouteBody, type DeclaredBody } from './declared-body';

/**
 * Every route's body is declared once (issue 32, A2): validated from its declaration (DeclaresBody,
 * DeclaredRoute, TaskSubmissionRoute) and documented from the same. This keeps it true for every
 * controller under apps/gateway/src. The text generation routes are not controllers: their fast body
 * reader is declared in their table (generation-route.table.ts), whose DTOs the OpenAPI document shows.
 */

const SOURCE_ROOT = join(__dirname, '../..');

/** Routes that read their body themselves, each with its reason: nothing else may. */
const READS_ITS_OWN_BODY: Readonly<Record<string, string>> = {
  'ImagesController.edit':
    'multipart/form-data only (image files and a mask): read by the multipart form reader',
  'VideoSdkCallsController.edit':
    'every edit is refused (no family served edits): the body is only read to bound it',
};

/** POST routes whose call carries no body. */
const TAKES_NO_BODY: readonly string[] = ['WebhooksController.rotateSecret', 'WebhooksController.redeliver'];

const METHODS_WITH_BODIES = new Set<RequestMethod>([
  RequestMethod.POST,
  RequestMethod.PUT,
  RequestMethod.PATCH,
]);
/** The request's body read beside the route's declaration. */
const BODY_READ = /\b(?:request|req)\.body\b/;

interface DocumentedParameter {
  in?: string;
  type?: unknown;
  schema?: { anyOf?: unknown[] };
}

/** What is wrong with the bodies of `controllers`' routes, one line each; empty when nothing is. */
function bodyProblemsOf(controllers: readonly Type<unknown>[]): string[] {
  const problems: string[] = [];
  for (const controller of controllers) {
    const prototype = controller.prototype as Record<string, unknown>;
    for (const name of Object.getOwnPropertyNames(prototype)) {
      const handler = Object.getOwnPropertyDescriptor(prototype, name)?.value as unknown;
      if (typeof handler !== 'function' || !Reflect.hasMetadata(METHOD_METADATA, handler)) continue;
      const route = `${controller.name}.${name}`;
      problems.push(...handlerProblemsOf(route, controller, name, handler));
    }
  }
  return problems;
}

function handlerProblemsOf(
  route: string,
  controller: Type<unknown>,
  name: string,
  handler: object,
): string[] {
  const problems: string[] = [];
  const declaration = bodyDeclarationOf(handler);
  const readsItsOwn = Object.hasOwn(READS_ITS_OWN_BODY, route);
  const argumentKeys = Object.keys(
    (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, name) ?? {}) as Record<string, unknown>,
  );
  if (argumentKeys.some((key) => key.split(':')[0] === String(RouteParamtypes.BODY))) {
    problems.push(`${route} takes @Body(): declare its body (DeclaresBody) and take it with @RouteBody()`);
  }
  const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod;
  if (METHODS_WITH_BODIES.has(method) && !declaration && !readsItsOwn && !TAKES_NO_BODY.includes(route)) {
    problems.push(`${route} declares no body`);
  }
  const documented = (
    (Reflect.getMetadata(DECORATORS.API_PARAMETERS, handler) ?? []) as DocumentedParameter[]
  ).filter((parameter) => parameter.in === 'body');
  if (documented.length > 0 && !declaration && !readsItsOwn) {
    problems.push(`${route} documents a body it does not declare`);
  }
  if (declaration && !('bodies' in declaration) && documented.some((body) => body.type !== declaration.dto)) {
    problems.push(`${route} documents another body than the one it declares`);
  }
  return problems;
}

/** Every `*.controller.ts` under `directory`, as paths. */
function controllerFilesUnder(directory: string): string[] {
  return readdirSync(directory, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.controller.ts'))
    .map((path) => join(directory, path));
}

async function controllersIn(file: string): Promise<Type<unknown>[]> {
  const exports = Object.values((await import(file)) as Record<string, unknown>);
  return exports.filter(
    (value): value is Type<unknown> =>
      typeof value === 'function' && Reflect.getMetadata(CONTROLLER_WATERMARK, value) === true,
  );
}

describe('declared bodies', () => {
  const files = controllerFilesUnder(SOURCE_ROOT);
  let controllers: Type<unknown>[];

  beforeAll(async () => {
    controllers = (await Promise.all(files.map(controllersIn))).flat();
  });

  it('finds the controllers of the gateway', () => {
    const names = controllers.map((controller) => controller.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'BetaActionController',
        'KeysController',
        'MusicController',
        'ImagesController',
      ]),
    );
    expect(names.length).toBeGreaterThanOrEqual(files.length);
  });

  it('every route of every controller takes its body from its declaration, documented from the same', () => {
    expect(bodyProblemsOf(controllers)).toEqual([]);
  });

  it('no controller reads the request body beside a declaration, but the routes listed with their reason', () => {
    const readers = files.filter((file) => BODY_READ.test(readFileSync(file, 'utf8')));
    const listedFiles = ['modality/videos/sdk-calls/video-sdk-calls.controller.ts'];
    expect(readers.map((file) => relative(join(SOURCE_ROOT, 'routes'), file))).toEqual(listedFiles);
  });

  it('finds a route that takes @Body(), one that declares no body, and one that documents another', () => {
    class Dto {
      field?: string;
    }
    class OtherDto {
      field?: string;
    }
    const declaration = { dto: Dto, validate: (_dto: Type<Dto>, body: unknown) => body as Dto };
    @Controller('fixture')
    class FixtureController {
      @Post('raw')
      raw(@Body() body: unknown): unknown {
        return body;
      }

      @Post('undeclared')
      undeclared(@Req() request: FastifyRequest): unknown {
        return request.id;
      }

      @Post('documented')
      @ApiBody({ type: Dto })
      documented(): void {}

      @Post('mismatched')
      @DeclaresBody(declaration)
      @ApiBody({ type: OtherDto })
      mismatched(@RouteBody() body: DeclaredBody<Dto>): Dto {
        return body.fields();
      }

      @Post('declared')
      @DeclaresBody(declaration)
      declared(@RouteBody() body: DeclaredBody<Dto>): Dto {
        return body.fields();
      }
    }

    expect(bodyProblemsOf([FixtureController])).toEqual([
      'FixtureController.raw takes @Body(): declare its body (DeclaresBody) and take it with @RouteBody()',
      'FixtureController.raw declares no body',
      'FixtureController.undeclared declares no body',
      'FixtureController.documented declares no body',
      'FixtureController.documented documents a body it does not declare',
      'FixtureController.mismatched documents another body than the one it declares',
    ]);
  });
});
