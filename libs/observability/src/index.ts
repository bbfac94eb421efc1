export * from './logger/connection-errors.util';
export * from './logger/error-message.util';
export * from './logger/create-logger';
export * from './logger/log-redaction.paths';
export * from './logger/sensitive-text.scrub';
export * from './metrics/create-metrics';
export * from './request-id/request-id.util';
export * from './metrics/series-cache';
