import { DECORATORS } from '@nestjs/swagger';
import { StringField } from '@gateway/contracts';
import { everyFaultRefused } from './body-validation.util';
import {
  bodyDeclarationOf,
  ChosenBody,
  DeclaredBody,
  DeclaresBody,
  type BodyChoice,
  type BodyDeclaration,
} from './declared-body';

class SubmitDto {
  @StringField({ description: 'What to make.' })
  prompt: string;
}

class QueryDto {
  @StringField({ description: 'The task asked about.' })
  task_id: string;
}

interface Bodies {
  Submit: SubmitDto;
  Query: QueryDto;
  Peek: QueryDto;
}

/** A declaration that counts its validations. */
function counted<Fields extends object>(dto: new () => Fields): BodyDeclaration<Fields> & { calls: number } {
  const declaration = {
    dto,
    calls: 0,
    validate: (dtoClass: new () => Fields, body: unknown) => {
      declaration.calls += 1;
      return everyFaultRefused(dtoClass, body);
    },
  };
  return declaration;
}

const CHOICE: BodyChoice<Bodies> = {
  chosenBy: { query: 'Action' },
  description: 'What to do.',
  bodies: { Submit: counted(SubmitDto), Query: counted(QueryDto), Peek: counted(QueryDto) },
};

interface DocumentedParameter {
  in: string;
  name?: string;
  required?: boolean;
  type?: unknown;
  schema?: { anyOf?: { $ref: string }[]; enum?: unknown[] };
}

function documentedParameters(handler: object): DocumentedParameter[] {
  return (Reflect.getMetadata(DECORATORS.API_PARAMETERS, handler) ?? []) as DocumentedParameter[];
}

describe('DeclaredBody', () => {
  it('validates by its declaration when the fields are first asked for, and only once', () => {
    const declaration = counted(SubmitDto);
    const body = new DeclaredBody({ prompt: 'a kite', extra: 1 }, declaration);
    expect(declaration.calls).toBe(0);

    expect(body.fields()).toEqual(Object.assign(new SubmitDto(), { prompt: 'a kite', extra: 1 }));
    expect(body.fields()).toBe(body.fields());
    expect(declaration.calls).toBe(1);
    expect(body.raw).toEqual({ prompt: 'a kite', extra: 1 });
  });

  it('throws the declaration’s refusal, naming the field, each time it is asked', () => {
    const body = new DeclaredBody({ prompt: 7 }, counted(SubmitDto));
    expect(() => body.fields()).toThrow(expect.objectContaining({ param: 'prompt' }));
    expect(() => body.fields()).toThrow('prompt must be a string');
  });
});

describe('ChosenBody', () => {
  it('takes the body under the declaration of the value the route read', () => {
    const chosen = new ChosenBody({ task_id: 't-1' }, CHOICE);

    expect(chosen.as('Query').fields()).toMatchObject({ task_id: 't-1' });
    expect(() => chosen.as('Submit').fields()).toThrow(expect.objectContaining({ param: 'prompt' }));
  });
});

describe('DeclaresBody', () => {
  class Routes {
    @DeclaresBody(CHOICE)
    chosen(): void {}

    @DeclaresBody({ ...counted(QueryDto), optional: true })
    optional(): void {}

    @DeclaresBody(counted(SubmitDto))
    required(): void {}
  }

  it('records the declaration on the handler, for RouteBody', () => {
    expect(bodyDeclarationOf(Routes.prototype.chosen)).toBe(CHOICE);
    expect(bodyDeclarationOf(Routes.prototype.required)).toMatchObject({ dto: SubmitDto });
  });

  it('documents a choice: the parameter with its values, and each body once', () => {
    const parameters = documentedParameters(Routes.prototype.chosen);
    expect(parameters.find((parameter) => parameter.in === 'query')).toMatchObject({
      name: 'Action',
      description: 'What to do.',
      schema: { enum: ['Submit', 'Query', 'Peek'] },
    });
    const body = parameters.find((parameter) => parameter.in === 'body');
    expect(body?.schema?.anyOf).toEqual([
      { $ref: '#/components/schemas/SubmitDto' },
      { $ref: '#/components/schemas/QueryDto' },
    ]);
    expect(Reflect.getMetadata(DECORATORS.API_EXTRA_MODELS, Routes.prototype.chosen)).toEqual([
      SubmitDto,
      QueryDto,
    ]);
  });

  it('documents one body as its DTO, required unless the declaration says it may be left out', () => {
    const bodyOf = (handler: object) =>
      documentedParameters(handler).find((parameter) => parameter.in === 'body');
    expect(bodyOf(Routes.prototype.required)).toMatchObject({ type: SubmitDto, required: true });
    expect(bodyOf(Routes.prototype.optional)).toMatchObject({ type: QueryDto, required: false });
  });
});
