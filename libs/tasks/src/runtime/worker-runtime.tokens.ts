/** Injection tokens of the shared worker runtime. */
export const WORKER_CONFIG = Symbol('WORKER_CONFIG');
export const WORKER_LOGGER = Symbol('WORKER_LOGGER');
export const WORKER_ENVIRONMENT = Symbol('WORKER_ENVIRONMENT');
export const PG_POOL = Symbol('PG_POOL');
export const PRISMA_CLIENT = Symbol('PRISMA_CLIENT');
/** The worker's metrics (WorkerMetrics of libs/observability), served on WORKER_METRICS_PORT. */
export const WORKER_METRICS = Symbol('WORKER_METRICS');
/** The process's one TaskChangeAnnouncer: every TaskStore of the worker tells it of committed changes. */
export const TASK_CHANGE_ANNOUNCER = Symbol('TASK_CHANGE_ANNOUNCER');
