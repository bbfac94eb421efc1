import { Injectable } from '@nestjs/common';
import { isJsonObject, type SerialisableObject } from '@gateway/providers-core';
import { GatewayError } from '@gateway/errors';
import { isAssetId } from './asset-ids';
import { AssetStoreLoader } from './asset-store.loader';

const ASSET_SCHEME = 'asset://';
/** The asset type each content item type may cite. */
const ASSET_TYPE_OF_ITEM: Readonly<Record<string, string>> = {
  image_url: 'Image',
  video_url: 'Video',
  audio_url: 'Audio',
};

interface Citation {
  index: number;
  type: string;
  id: string;
}

/** A request's content with the gateway's asset ids replaced by the upstream's, and their channel. */
export interface CitedContent {
  content: SerialisableObject[];
  /** The channel holding every cited asset; undefined when the request cites none. */
  channelId?: string;
}

/**
 * `asset://{AssetId}` in a theta 2.0 request's content: each cited asset must exist, be the caller's
 * (not deleted) and be `Active`, of the type its item is; otherwise a 400 naming the asset and its
 * status. The gateway's ids become the upstream's in the call, and the task goes to the channel
 * holding them (assets of two channels cannot be cited together).
 */
@Injectable()
export class AssetReferences {
  constructor(private readonly stores: AssetStoreLoader) {}

  async resolve(content: SerialisableObject[], accountId: string): Promise<CitedContent> {
    const citations = citationsOf(content);
    if (citations.length === 0) return { content };
    const ids = [...new Set(citations.map((citation) => citation.id).filter(isAssetId))];
    const rows = new Map(
      (await (await this.stores.store()).findAssets(ids, accountId)).map((row) => [row.id, row]),
    );
    const rewritten = structuredClone(content);
    const channels = new Set<string>();
    for (const { index, type, id } of citations) {
      const param = `content[${index}].${type}.url`;
      const row = rows.get(id);
      if (!row) throw GatewayError.invalidRequest(`The asset ${id} does not exist.`, param);
      if (row.status !== 'Active') {
        throw GatewayError.invalidRequest(
          `The asset ${id} is ${row.status}; only Active assets can be cited.`,
          param,
        );
      }
      if (row.assetType !== ASSET_TYPE_OF_ITEM[type]) {
        throw GatewayError.invalidRequest(
          `The asset ${id} is ${row.assetType}; a ${type} item needs ${ASSET_TYPE_OF_ITEM[type]}.`,
          param,
        );
      }
      ((rewritten[index] as SerialisableObject)[type] as SerialisableObject).url =
        `${ASSET_SCHEME}${row.upstreamId}`;
      channels.add(row.channelId);
    }
    if (channels.size > 1) {
      throw GatewayError.invalidRequest(
        'The assets cited were uploaded through different channels; cite assets of groups made together.',
        'content',
      );
    }
    return { content: rewritten, channelId: [...channels][0] };
  }
}

/** The `asset://` URLs of the items whose type can carry one (the rules check everything else). */
function citationsOf(content: SerialisableObject[]): Citation[] {
  const citations: Citation[] = [];
  content.forEach((item, index) => {
    const type = item.type;
    if (typeof type !== 'string' || !Object.hasOwn(ASSET_TYPE_OF_ITEM, type)) return;
    const media = item[type];
    const url = isJsonObject(media) ? media.url : undefined;
    if (typeof url === 'string' && url.startsWith(ASSET_SCHEME)) {
      citations.push({ index, type, id: url.slice(ASSET_SCHEME.length) });
    }
  });
  return citations;
}
