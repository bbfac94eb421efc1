/**
 * The queue names and job payloads, without the worker runtime: what a producer such as the gateway
 * needs (`@gateway/tasks/queues`), so that it does not load the workers' Nest modules and Prisma.
 */
export * from './queue-names';
export * from './task/task-kinds';
export * from './jobs/asset-status.job';
export * from './jobs/task-step.job';
export * from './jobs/text-settlement.job';
// Pure helpers the gateway's poll hints need (no Prisma, no BullMQ at run time).
export * from './task/task-status';
export * from './task/poll-delay.util';
// The progress streams' wake-up: the channel and message format the gateway subscribes to.
export * from './task/task-change.announcement';
export { DEFAULT_TASK_STEP_TIMING, type TaskStepTiming } from './task/task-step.types';
