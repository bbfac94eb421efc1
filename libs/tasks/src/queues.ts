/**
 * The queue names and job payloads, without the worker runtime: what a producer such as the gateway
 * needs (`@gateway/tasks/queues`), so that it does not load the workers' Nest modules and Prisma.
 */
export * from './queue-names';
export * from './task/task-kinds';
export * from './jobs/asset-status.job';
export * from './jobs/task-step.job';
export * from './jobs/text-settlement.job';
