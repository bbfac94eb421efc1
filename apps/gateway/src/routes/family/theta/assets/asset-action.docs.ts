import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiExtraModels, ApiOkResponse, getSchemaPath } from '@nestjs/swagger';
import {
  AssetCreatedView,
  AssetEmptyResultView,
  AssetGroupCreatedView,
  AssetGroupPageView,
  AssetGroupView,
  AssetPageView,
  AssetView,
} from './asset-answers.view';
import {
  AssetIdRequestDto,
  CreateAssetGroupRequestDto,
  CreateAssetRequestDto,
  ListAssetGroupsRequestDto,
  ListAssetsRequestDto,
  UpdateAssetGroupRequestDto,
  UpdateAssetRequestDto,
} from './asset-requests';

const REQUEST_MODELS = [
  CreateAssetGroupRequestDto,
  CreateAssetRequestDto,
  AssetIdRequestDto,
  UpdateAssetRequestDto,
  UpdateAssetGroupRequestDto,
  ListAssetGroupsRequestDto,
  ListAssetsRequestDto,
];

const ANSWER_MODELS = [
  AssetGroupCreatedView,
  AssetCreatedView,
  AssetView,
  AssetGroupView,
  AssetPageView,
  AssetGroupPageView,
  AssetEmptyResultView,
];

/**
 * The body and `Result` of `POST /v1/theta/asset/{action}`, one shape per action. anyOf, not oneOf:
 * the path's action tells them apart, and several shapes accept the same JSON (every field of a
 * listing is optional).
 */
export function AssetActionDocs(): MethodDecorator {
  const anyOf = (models: readonly (new () => object)[]) => ({
    anyOf: models.map((model) => ({ $ref: getSchemaPath(model) })),
  });
  return applyDecorators(
    ApiExtraModels(...REQUEST_MODELS, ...ANSWER_MODELS),
    ApiBody({
      description: 'The action’s body; see the operation’s description.',
      schema: anyOf(REQUEST_MODELS),
    }),
    ApiOkResponse({ description: "The action's `Result`.", schema: anyOf(ANSWER_MODELS) }),
  );
}
