export * from './compat-error.classifier';
export * from './compat-text.adapter';
export * from './compat-usage.util';
export * from './compat.channel-type';
export * from './image/compat-image.adapter';
export * from './image/compat-image.rules';
