// perf-machinery: lazy-queue (docs/performance-machinery.md)
// A worker process's side of the task platform, apart from the index: what consumes BullMQ queues
// (the queue runtime, the consumers and the worker modules built on them). The gateway imports the
// index, runs task steps inline and opens its queues lazily (lazy-queue): it must not load BullMQ.
export * from './runtime/queue-runtime.service';
export * from './runtime/step-job.runner';
export * from './runtime/task-step.consumer';
export * from './runtime/task-step-worker.module';
export * from './runtime/worker-runtime.module';
export * from './assets/asset-status-worker.module';
export * from './music/music-poll.consumer';
export * from './music/music-poll.module';
