import { createRequire } from 'node:module';
import { loadWithLazyDateTimeFormat } from './lazy-date-time-format';

// perf-machinery: lazy-date-format (docs/performance-machinery.md)
/**
 * Imported first by every app's main.ts: loads @nestjs/common without building its loggers' date
 * formatters up front (see loadWithLazyDateTimeFormat). Later imports of @nestjs/common get the
 * module from the cache.
 */
loadWithLazyDateTimeFormat(() => createRequire(__filename)('@nestjs/common'));
