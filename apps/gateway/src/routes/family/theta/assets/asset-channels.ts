import { Injectable } from '@nestjs/common';
import { assetAdapterFor } from '@gateway/providers';
import type { AssetAdapter } from '@gateway/providers-core';
import { ChannelCatalog, CircuitBreaker, orderCandidates, type ChannelCandidate } from '@gateway/routing';
import { GatewayError } from '@gateway/errors';

/** A channel of the asset library, with its control plane. */
export interface AssetChannel {
  candidate: ChannelCandidate;
  adapter: AssetAdapter;
}

/**
 * The channels whose control plane holds the asset library: enabled channels whose type has the
 * asset capability and whose settings configure it (an eta channel, which serves theta 2.0). A new group goes to one
 * of them in routing order (a closed circuit first); everything in a group stays on its channel, and
 * so do the videos that cite its assets.
 */
@Injectable()
export class AssetChannels {
  constructor(
    private readonly catalog: ChannelCatalog,
    private readonly breaker: CircuitBreaker,
  ) {}

  forNewGroup(): AssetChannel {
    const ordered = orderCandidates(this.all());
    const chosen =
      ordered.find(({ candidate }) => this.breaker.stateOf(candidate.id) === 'closed') ?? ordered[0];
    if (!chosen) {
      // Not a passing outage: this gateway offers no asset library, as a model no channel serves.
      throw new GatewayError('not_found', 'No channel of this gateway offers the theta asset library.');
    }
    return chosen;
  }

  byId(channelId: string): AssetChannel {
    const found = this.all().find(({ candidate }) => candidate.id === channelId);
    if (!found) {
      throw new GatewayError(
        'service_unavailable',
        'The channel holding this asset group is not available right now; retry later.',
      );
    }
    return found;
  }

  private all(): Array<AssetChannel & { priority: number; weight: number }> {
    const byId = new Map<string, AssetChannel & { priority: number; weight: number }>();
    for (const model of this.catalog.offeredModels()) {
      for (const candidate of this.catalog.candidatesFor(model)) {
        const adapter = assetAdapterFor(candidate.type);
        if (!adapter?.servesAssets(candidate.connection) || byId.has(candidate.id)) continue;
        byId.set(candidate.id, {
          candidate,
          adapter,
          priority: candidate.priority,
          weight: candidate.weight,
        });
      }
    }
    return [...byId.values()];
  }
}
