export * from './gateway-error';
