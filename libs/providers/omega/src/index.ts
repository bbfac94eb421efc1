export * from './omega-error.classifier';
export * from './omega-models';
export * from './omega-task.adapter';
export * from './omega-video.rules';
export * from './omega.channel-type';
