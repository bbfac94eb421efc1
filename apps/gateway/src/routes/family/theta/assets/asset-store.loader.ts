import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { Pool } from 'pg';
import { PG_POOL } from '../../../../platform/infrastructure/tokens';
import type { AssetStore } from './asset-store';

/**
 * Opens the AssetStore (and Prisma with it) on the first asset route call, as TaskRuntimeLoader does
 * for tasks: a replica that serves none never loads it.
 */
@Injectable()
export class AssetStoreLoader implements OnModuleDestroy {
  private opened: Promise<AssetStore> | undefined;

  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  store(): Promise<AssetStore> {
    this.opened ??= import('./asset-store').then(({ AssetStore }) => new AssetStore(this.pool));
    return this.opened;
  }

  async onModuleDestroy(): Promise<void> {
    if (this.opened) await (await this.opened).close();
  }
}
