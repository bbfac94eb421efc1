export * from './image/kappa-image-models';
export * from './image/kappa-image-size.rule';
export * from './image/kappa-image.adapter';
export * from './image/kappa-image.rules';
export * from './kappa-error.classifier';
export * from './kappa-text.adapter';
export * from './kappa-usage.util';
export * from './kappa.channel-type';
