import {
  checkBody,
  describeProblems,
  findUnstorableText,
  EnumField,
  HttpUrlField,
  IntegerField,
  NestedField,
  OPTIONAL_OR_NULL,
  StringField,
  StringListField,
  UNSTORABLE_TEXT_PROBLEM,
} from '@gateway/contracts';
import type { ClassConstructor } from 'class-transformer';
import { GatewayError } from '@gateway/errors';

/** The control plane's own limits (upstreams.md §6.5), checked before anything reaches it. */
const NAME = { nonEmpty: true, maxLength: 64 } as const;
const DESCRIPTION = { maxLength: 300 } as const;
const ID = { nonEmpty: true, maxLength: 64 } as const;
export const ASSET_TYPES = ['Image', 'Video', 'Audio'] as const;
export type AssetTypeName = (typeof ASSET_TYPES)[number];
export const MAX_PAGE_SIZE = 100;

export class CreateAssetGroupRequestDto {
  @StringField({ description: 'Group name, at most 64 characters.', ...NAME })
  Name: string;

  @StringField({ description: 'At most 300 characters.', ...OPTIONAL_OR_NULL, ...DESCRIPTION })
  Description?: string | null;
}

export class CreateAssetRequestDto {
  @StringField({ description: 'The `GroupId` CreateAssetGroup answered.', ...ID })
  GroupId: string;

  @HttpUrlField({ description: 'A public http(s) URL the upstream can read for 24 hours.' })
  URL: string;

  @StringField({ description: 'Asset name, at most 64 characters.', ...NAME })
  Name: string;

  @EnumField(ASSET_TYPES, { description: 'What the file is.' })
  AssetType: AssetTypeName;
}

export class AssetIdRequestDto {
  @StringField({ description: 'The id CreateAsset or CreateAssetGroup answered.', ...ID })
  Id: string;
}

export class UpdateAssetRequestDto extends AssetIdRequestDto {
  @StringField({ description: 'The new name.', ...NAME })
  Name: string;
}

export class UpdateAssetGroupRequestDto extends AssetIdRequestDto {
  @StringField({ description: 'The new name.', ...OPTIONAL_OR_NULL, ...NAME })
  Name?: string | null;

  @StringField({ description: 'The new description.', ...OPTIONAL_OR_NULL, ...DESCRIPTION })
  Description?: string | null;
}

export class ListAssetGroupsRequestDto {
  @IntegerField({ description: '1-based; 1 by default.', ...OPTIONAL_OR_NULL, min: 1, max: 1_000_000 })
  PageNumber?: number | null;

  @IntegerField({
    description: `10 by default, at most ${MAX_PAGE_SIZE}.`,
    ...OPTIONAL_OR_NULL,
    min: 1,
    max: MAX_PAGE_SIZE,
  })
  PageSize?: number | null;
}

export class AssetFilterDto {
  @StringListField({
    description: 'Only the assets of these groups.',
    ...OPTIONAL_OR_NULL,
    maxItems: MAX_PAGE_SIZE,
    items: ID,
  })
  GroupIds?: string[] | null;
}

export class ListAssetsRequestDto extends ListAssetGroupsRequestDto {
  @NestedField(() => AssetFilterDto, { description: 'Which assets.', ...OPTIONAL_OR_NULL })
  Filter?: AssetFilterDto | null;
}

/**
 * The body checked against the action's DTO; its refusal names the first field at fault. Judged by
 * the DTOs' plain rules (checkBody), not by building instances: class-transformer copies every field
 * of the body, unknown ones too, so a hostile body of large lists cost milliseconds per request. The
 * DTOs hold no defaults, methods or transforms, so the checked body is the request as the DTO types it.
 */
export function readAssetRequest<T extends object>(dtoClass: ClassConstructor<T>, body: unknown): T {
  const result = checkBody(dtoClass, body);
  if (!result.ok)
    throw GatewayError.invalidRequest(describeProblems(result.problems), result.problems[0]?.field);
  // Names and URLs go into text columns, which hold no NUL.
  const unstorable = findUnstorableText(body);
  if (unstorable !== undefined) {
    throw GatewayError.invalidRequest(`${unstorable} ${UNSTORABLE_TEXT_PROBLEM}.`, unstorable);
  }
  return body as T;
}
