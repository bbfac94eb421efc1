export * from './beta-channel.settings';
export * from './beta-credentials.parse';
export * from './beta-error.classifier';
export * from './beta-signature';
export * from './beta-task.adapter';
export * from './beta.channel-type';
export * from './image/beta-image.adapter';
export * from './image/beta-image.rules';
