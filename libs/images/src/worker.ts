// worker-image's side of asynchronous image jobs, apart from the index: the gateway imports the index
// on its synchronous path, which must not load the task library and BullMQ that these need.
export * from './generation-task/image-job.step';
export * from './generation-task/image-job-steps.factory';
