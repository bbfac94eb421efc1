export * from './alpha-error.classifier';
export * from './alpha-task.adapter';
export * from './alpha.channel-type';
export * from './video/alpha-models';
export { ALPHA_IMAGE_MAX_BYTES, alphaImageHeaderRefusal, type ImageHeader } from './video/alpha-image.rules';
export * from './video/alpha-video.adapter';
export * from './video/alpha-video.rules';
