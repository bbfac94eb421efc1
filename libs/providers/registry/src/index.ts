export * from './text-adapter.lookup';
export * from './text-adapter.registry';
