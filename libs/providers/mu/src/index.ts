export * from './mu-error.classifier';
export * from './mu-models';
export * from './mu-task.adapter';
export * from './mu-video.rules';
export * from './mu.channel-type';
