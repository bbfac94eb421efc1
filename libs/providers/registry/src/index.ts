export * from './channel-type-definitions.check';
export * from './channel-type.lookup';
export * from './channel-type.registry';
export * from './native-request.rules';
export * from './theta2-video.rules';
export * from './official-route.rules';
export * from './video-extension.rules';
