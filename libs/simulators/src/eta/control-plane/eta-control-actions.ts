import { Directives } from '../../directives';
import { isRecord } from '../../sample-arguments.util';
import { WireError } from '../../scripted-error';
import { scriptedTaskPlanOf } from '../../scripted-task.store';
import { EtaAsset, EtaAssetGroup, EtaAssetLibrary, ETA_ASSET_TYPES } from './eta-asset-library';
import {
  EtaControlIdentity,
  etaControlInvalid,
  etaControlMissing,
  etaControlNotFound,
} from './eta-control-envelope';

/** One action's inputs: who signed, the body, the directives of the call. */
export interface EtaControlRequest {
  library: EtaAssetLibrary;
  owner: string;
  body: Record<string, unknown>;
  directives: Directives;
  identity: EtaControlIdentity;
}

export type EtaControlOutcome = { result: Record<string, unknown> } | { error: WireError };

const MAX_NAME_LENGTH = 64;
const MAX_DESCRIPTION_LENGTH = 300;
const GROUP_TYPE = 'AIGC';
const DEFAULT_PROJECT = 'default';
const PUBLIC_URL = /^https?:\/\/\S+$/;

type Action = (request: EtaControlRequest) => EtaControlOutcome;

/** The actions of upstreams.md §6.5, by name. */
export const ETA_CONTROL_ACTIONS: Readonly<Record<string, Action>> = {
  CreateAssetGroup: createAssetGroup,
  GetAssetGroup: (request) => withGroup(request, (group) => ({ result: groupView(group) })),
  ListAssetGroups: ({ library, owner, body }) => page(library.listGroups(owner).map(groupView), body),
  UpdateAssetGroup: (request) =>
    withGroup(request, (group) => {
      const name = request.body['Name'];
      const description = request.body['Description'];
      if (typeof name === 'string') group.name = name;
      if (typeof description === 'string') group.description = description;
      group.updateTimeMs = Date.now();
      return { result: {} };
    }),
  DeleteAssetGroup: (request) =>
    withGroup(request, (group) => {
      request.library.deleteGroup(group);
      return { result: {} };
    }),
  CreateAsset: createAsset,
  GetAsset: (request) =>
    withAsset(request, (asset) => {
      request.library.observe(asset);
      return { result: assetView(asset) };
    }),
  ListAssets: listAssets,
  UpdateAsset: (request) =>
    withAsset(request, (asset) => {
      const name = request.body['Name'];
      if (typeof name === 'string') asset.fields.name = name;
      asset.fields.updateTimeMs = Date.now();
      return { result: {} };
    }),
  DeleteAsset: (request) =>
    withAsset(request, (asset) => {
      request.library.deleteAsset(asset);
      return { result: {} };
    }),
};

function createAssetGroup({ library, owner, body, identity }: EtaControlRequest): EtaControlOutcome {
  const name = body['Name'];
  if (typeof name !== 'string' || name === '') return { error: etaControlMissing(identity, 'Name') };
  if (name.length > MAX_NAME_LENGTH) {
    return { error: etaControlInvalid(identity, 'Name', `at most ${MAX_NAME_LENGTH} characters.`) };
  }
  const description = body['Description'] ?? '';
  if (typeof description !== 'string' || description.length > MAX_DESCRIPTION_LENGTH) {
    return {
      error: etaControlInvalid(
        identity,
        'Description',
        `a string of at most ${MAX_DESCRIPTION_LENGTH} characters.`,
      ),
    };
  }
  const groupType = body['GroupType'] ?? GROUP_TYPE;
  if (groupType !== GROUP_TYPE)
    return { error: etaControlInvalid(identity, 'GroupType', `must be ${GROUP_TYPE}.`) };
  const group = library.createGroup({ owner, name, description, groupType, projectName: projectOf(body) });
  return { result: { Id: group.id } };
}

function createAsset({ library, owner, body, directives, identity }: EtaControlRequest): EtaControlOutcome {
  for (const field of ['GroupId', 'URL', 'Name', 'AssetType']) {
    if (typeof body[field] !== 'string' || body[field] === '')
      return { error: etaControlMissing(identity, field) };
  }
  const { GroupId: groupId, URL: url, Name: name, AssetType: assetType } = body as Record<string, string>;
  if (!library.findGroup(owner, groupId))
    return { error: etaControlNotFound(identity, 'AssetGroup', groupId) };
  if (!PUBLIC_URL.test(url)) return { error: etaControlInvalid(identity, 'URL', 'a public http(s) URL.') };
  if (!ETA_ASSET_TYPES.includes(assetType)) {
    return { error: etaControlInvalid(identity, 'AssetType', `one of ${ETA_ASSET_TYPES.join(', ')}.`) };
  }
  if (name.length > MAX_NAME_LENGTH) {
    return { error: etaControlInvalid(identity, 'Name', `at most ${MAX_NAME_LENGTH} characters.`) };
  }
  const asset = library.createAsset(owner, scriptedTaskPlanOf(directives, 0), {
    groupId,
    name,
    url,
    assetType,
    projectName: projectOf(body),
  });
  return { result: { Id: asset.id } };
}

/** `Filter.GroupIds` narrows the list; each listed asset moves on as if looked at. */
function listAssets({ library, owner, body }: EtaControlRequest): EtaControlOutcome {
  const filter = isRecord(body['Filter']) ? body['Filter'] : {};
  const groupIds = Array.isArray(filter['GroupIds'])
    ? filter['GroupIds'].filter((id): id is string => typeof id === 'string')
    : undefined;
  const assets = library.listAssets(owner, groupIds);
  for (const asset of assets) library.observe(asset);
  return page(assets.map(assetView), body);
}

function withGroup(
  request: EtaControlRequest,
  act: (group: EtaAssetGroup) => EtaControlOutcome,
): EtaControlOutcome {
  const id = request.body['Id'];
  if (typeof id !== 'string' || id === '') return { error: etaControlMissing(request.identity, 'Id') };
  const group = request.library.findGroup(request.owner, id);
  return group ? act(group) : { error: etaControlNotFound(request.identity, 'AssetGroup', id) };
}

function withAsset(
  request: EtaControlRequest,
  act: (asset: EtaAsset) => EtaControlOutcome,
): EtaControlOutcome {
  const id = request.body['Id'];
  if (typeof id !== 'string' || id === '') return { error: etaControlMissing(request.identity, 'Id') };
  const asset = request.library.findAsset(request.owner, id);
  return asset ? act(asset) : { error: etaControlNotFound(request.identity, 'Asset', id) };
}

/** `{Items, TotalCount, PageNumber, PageSize}`‡, 1-based pages of 10 by default. */
function page(items: Array<Record<string, unknown>>, body: Record<string, unknown>): EtaControlOutcome {
  const pageNumber = positiveIntegerOr(body['PageNumber'], 1);
  const pageSize = positiveIntegerOr(body['PageSize'], 10);
  const start = (pageNumber - 1) * pageSize;
  return {
    result: {
      Items: items.slice(start, start + pageSize),
      TotalCount: items.length,
      PageNumber: pageNumber,
      PageSize: pageSize,
    },
  };
}

function groupView(group: EtaAssetGroup): Record<string, unknown> {
  return {
    Id: group.id,
    Name: group.name,
    Description: group.description,
    GroupType: group.groupType,
    ProjectName: group.projectName,
    CreateTime: new Date(group.createTimeMs).toISOString(),
    UpdateTime: new Date(group.updateTimeMs).toISOString(),
  };
}

function assetView(asset: EtaAsset): Record<string, unknown> {
  const { fields } = asset;
  return {
    Id: asset.id,
    Name: fields.name,
    URL: fields.url,
    AssetType: fields.assetType,
    GroupId: fields.groupId,
    Status: fields.status,
    ...(fields.error ? { Error: fields.error } : {}),
    ProjectName: fields.projectName,
    CreateTime: new Date(asset.createdAtMs).toISOString(),
    UpdateTime: new Date(fields.updateTimeMs).toISOString(),
  };
}

function projectOf(body: Record<string, unknown>): string {
  return typeof body['ProjectName'] === 'string' && body['ProjectName'] !== ''
    ? body['ProjectName']
    : DEFAULT_PROJECT;
}

function positiveIntegerOr(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : fallback;
}
