export type { Environment } from './environment-reader';
export * from './gateway-config';
export * from './invalid-configuration.error';
export * from './load-config';
