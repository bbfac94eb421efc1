import * as classTransformer from 'class-transformer';
import { describeProblems, validateBody } from '@gateway/contracts';
import { GatewayError } from '@gateway/errors';
import {
  AssetIdRequestDto,
  CreateAssetGroupRequestDto,
  CreateAssetRequestDto,
  ListAssetGroupsRequestDto,
  ListAssetsRequestDto,
  readAssetRequest,
  UpdateAssetGroupRequestDto,
  UpdateAssetRequestDto,
} from './asset-requests';

type AssetDto = new () => object;

/** The refusal as the route answered it when it validated through class-validator's instances. */
function instanceRefusal(dtoClass: AssetDto, body: unknown): { message: string; param?: string } {
  const result = validateBody(dtoClass, body);
  if (result.ok) throw new Error(`${JSON.stringify(body)} is valid`);
  return { message: describeProblems(result.problems), param: result.problems[0]?.field };
}

function refusalOf(dtoClass: AssetDto, body: unknown): { message: string; param?: string } {
  try {
    readAssetRequest(dtoClass, body);
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    return { message: error.message, param: error.param };
  }
  throw new Error(`${JSON.stringify(body)} was accepted`);
}

const VALID: [AssetDto, object][] = [
  [CreateAssetGroupRequestDto, { Name: 'Characters', Description: null }],
  [
    CreateAssetRequestDto,
    { GroupId: 'g1', URL: 'https://assets.example.test/a.png', Name: 'a', AssetType: 'Image' },
  ],
  [AssetIdRequestDto, { Id: 'a1', unknown: [1, 2, 3] }],
  [UpdateAssetRequestDto, { Id: 'a1', Name: 'b' }],
  [UpdateAssetGroupRequestDto, { Id: 'g1', Name: null, Description: 'kept' }],
  [ListAssetGroupsRequestDto, {}],
  [ListAssetsRequestDto, { PageNumber: 2, PageSize: 100, Filter: { GroupIds: ['g1', 'g2'] } }],
];

const INVALID: [string, AssetDto, unknown][] = [
  ['a missing name', CreateAssetGroupRequestDto, { Description: 'x' }],
  ['a name past 64 characters', CreateAssetGroupRequestDto, { Name: 'n'.repeat(65) }],
  [
    'a description past 300 characters',
    CreateAssetGroupRequestDto,
    { Name: 'n', Description: 'd'.repeat(301) },
  ],
  [
    'a URL that is not http(s)',
    CreateAssetRequestDto,
    { GroupId: 'g', URL: 'ftp://a/b', Name: 'a', AssetType: 'Image' },
  ],
  [
    'an unknown asset type',
    CreateAssetRequestDto,
    { GroupId: 'g', URL: 'https://a.test/b', Name: 'a', AssetType: 'Doc' },
  ],
  ['every field wrong', CreateAssetRequestDto, { GroupId: 1, URL: 2, Name: 3, AssetType: 4 }],
  ['an empty id', AssetIdRequestDto, { Id: '' }],
  ['an id of another type', UpdateAssetRequestDto, { Id: 7, Name: 'b' }],
  ['a page size past 100', ListAssetGroupsRequestDto, { PageSize: 101 }],
  ['a fractional page', ListAssetsRequestDto, { PageNumber: 1.5 }],
  ['a filter that is a list', ListAssetsRequestDto, { Filter: [] }],
  ['a group id of another type', ListAssetsRequestDto, { Filter: { GroupIds: ['g', 5] } }],
  ['a body that is a list', AssetIdRequestDto, [{ Id: 'a' }]],
];

describe('readAssetRequest', () => {
  it.each(VALID)('answers a valid %p body as sent', (dtoClass, body) => {
    expect(readAssetRequest(dtoClass, body)).toBe(body);
  });

  it.each(INVALID)('refuses %s with the message validateBody words', (_case, dtoClass, body) => {
    expect(refusalOf(dtoClass, body)).toEqual(instanceRefusal(dtoClass, body));
  });

  it('refuses a name holding a NUL, which no text column stores', () => {
    expect(refusalOf(CreateAssetGroupRequestDto, { Name: 'a\u0000b' })).toMatchObject({ param: 'Name' });
  });

  it('judges every action body by the plain rules, never building a class-transformer instance', () => {
    const plainToInstance = jest.spyOn(classTransformer, 'plainToInstance');
    try {
      for (const [dtoClass, body] of VALID) readAssetRequest(dtoClass, body);
      for (const [, dtoClass, body] of INVALID) refusalOf(dtoClass, body);
      expect(plainToInstance).not.toHaveBeenCalled();
    } finally {
      plainToInstance.mockRestore();
    }
  });
});
