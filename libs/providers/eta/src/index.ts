export * from './eta-error.classifier';
export * from './eta.channel-type';
export * from './iota/iota-image-models';
export * from './iota/iota-image.adapter';
export * from './iota/iota-image.rules';
