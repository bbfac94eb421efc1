import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ASSET_TYPES, type AssetTypeName } from './asset-requests';

/*
 * The `Result` of each asset action (asset-answers.ts, upstreams.md §6.5), for the OpenAPI document.
 */

const ASSET_STATUSES = ['Processing', 'Active', 'Failed'] as const;

export class AssetGroupCreatedView {
  @ApiProperty()
  Id: string;

  @ApiProperty({ description: 'The same as `Id`.' })
  GroupId: string;
}

export class AssetCreatedView {
  @ApiProperty()
  Id: string;

  @ApiProperty({ description: 'The same as `Id`; cite it as `asset://{AssetId}` once Active.' })
  AssetId: string;

  @ApiProperty({ description: 'The same as `Id`.' })
  task_id: string;

  @ApiProperty({ enum: ASSET_STATUSES })
  Status: string;
}

export class AssetErrorView {
  @ApiProperty()
  Code: string;

  @ApiProperty()
  Message: string;
}

export class AssetView {
  @ApiProperty()
  Id: string;

  @ApiProperty()
  Name: string;

  @ApiProperty()
  URL: string;

  @ApiProperty({ enum: ASSET_TYPES })
  AssetType: AssetTypeName;

  @ApiProperty()
  GroupId: string;

  @ApiProperty({ enum: ASSET_STATUSES })
  Status: string;

  @ApiPropertyOptional({ type: AssetErrorView, description: 'Only when Failed.' })
  Error?: AssetErrorView;

  @ApiProperty()
  ProjectName: string;

  @ApiProperty({ format: 'date-time' })
  CreateTime: string;

  @ApiProperty({ format: 'date-time' })
  UpdateTime: string;
}

export class AssetGroupView {
  @ApiProperty()
  Id: string;

  @ApiProperty()
  Name: string;

  @ApiProperty()
  Description: string;

  @ApiProperty({ example: 'AIGC' })
  GroupType: string;

  @ApiProperty()
  ProjectName: string;

  @ApiProperty({ format: 'date-time' })
  CreateTime: string;

  @ApiProperty({ format: 'date-time' })
  UpdateTime: string;
}

class AssetPageFieldsView {
  @ApiProperty({ type: 'integer' })
  TotalCount: number;

  @ApiProperty({ type: 'integer' })
  PageNumber: number;

  @ApiProperty({ type: 'integer' })
  PageSize: number;
}

export class AssetPageView extends AssetPageFieldsView {
  @ApiProperty({ type: AssetView, isArray: true })
  Items: AssetView[];
}

export class AssetGroupPageView extends AssetPageFieldsView {
  @ApiProperty({ type: AssetGroupView, isArray: true })
  Items: AssetGroupView[];
}

/** The answer of the updates and deletions: `{}`. */
export class AssetEmptyResultView {}
