export * from './unadapted-task-kind.scenario';
export * from './text-settlement-queue';
export * from './image-worker';
