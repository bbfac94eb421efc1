import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, getSchemaPath } from '@nestjs/swagger';
import {
  AssetCreatedView,
  AssetEmptyResultView,
  AssetGroupCreatedView,
  AssetGroupPageView,
  AssetGroupView,
  AssetPageView,
  AssetView,
} from './asset-answers.view';

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
 * The `Result` of `POST /v1/theta/asset/{action}`, one shape per action (the body is the route's
 * declaration: ASSET_ACTION_BODIES). anyOf, not oneOf: the path's action tells them apart, and
 * several shapes accept the same JSON.
 */
export function AssetActionDocs(): MethodDecorator {
  const anyOf = (models: readonly (new () => object)[]) => ({
    anyOf: models.map((model) => ({ $ref: getSchemaPath(model) })),
  });
  return applyDecorators(
    ApiExtraModels(...ANSWER_MODELS),
    ApiOkResponse({ description: "The action's `Result`.", schema: anyOf(ANSWER_MODELS) }),
  );
}
