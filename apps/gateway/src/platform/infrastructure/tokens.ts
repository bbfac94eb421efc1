/** Injection tokens of the gateway's infrastructure (values that are not Nest classes). */
export const CONFIG = Symbol('CONFIG');
export const LOGGER = Symbol('LOGGER');
export const METRICS = Symbol('METRICS');
export const PG_POOL = Symbol('PG_POOL');
/** Hot-path money writes (holds, settlements), committed asynchronously: see createPgPool. */
export const MONEY_PG_POOL = Symbol('MONEY_PG_POOL');
/** The admin API's Prisma client, provided by AdminModule only. */
export const PRISMA = Symbol('PRISMA');
export const REDIS = Symbol('REDIS');
export const REDIS_SUBSCRIBER = Symbol('REDIS_SUBSCRIBER');
export const UPSTREAM_HTTP = Symbol('UPSTREAM_HTTP');
export const SETTLEMENT_QUEUE = Symbol('SETTLEMENT_QUEUE');
/** The SSRF-safe fetcher, for every URL the gateway downloads on a client's or an upstream's word. */
export const SAFE_FETCHER = Symbol('SAFE_FETCHER');
/** Where the gateway keeps the files it serves itself (libs/storage). */
export const OBJECT_STORE = Symbol('OBJECT_STORE');
