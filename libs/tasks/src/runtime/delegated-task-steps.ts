import type { InjectionToken, OptionalFactoryDependency } from '@nestjs/common';
import type { Job } from 'bullmq';
import type { TaskStepJob } from '../jobs/task-step.job';
import type { TaskStepResult } from '../task/task-step.types';

/** The delegated steps of a task worker, if it has any (null otherwise). */
export const DELEGATED_TASK_STEPS = Symbol('DELEGATED_TASK_STEPS');

/**
 * Steps of tasks that a worker runs with a processor of its own on the shared queue of their kind: an
 * asynchronous image job (worker-image) makes the synchronous route's whole upstream call, where a
 * `/bt` image task of the same kind and queue is submitted and polled by the shared step processor.
 * The consumer hands such a task's step jobs, and its overdue sweep, to `process` and `runStep`.
 */
export interface DelegatedTaskSteps {
  /** Whether the task's steps are this processor's, by its public id. */
  owns(taskId: string): boolean;
  process(job: Job<TaskStepJob>, token?: string): Promise<TaskStepResult>;
  runStep(taskId: string): Promise<TaskStepResult>;
}

/** How a worker app builds its delegated steps: a Nest factory over what the step worker module provides. */
export interface DelegatedTaskStepsFactory {
  useFactory: (...dependencies: never[]) => DelegatedTaskSteps | Promise<DelegatedTaskSteps>;
  inject: Array<InjectionToken | OptionalFactoryDependency>;
}
