export * from './lambda-error.classifier';
export * from './lambda-task.adapter';
export * from './lambda.channel-type';
