// Test helpers of the adapter libraries, kept out of the production entry point.
export * from './collect-text-stream';
export * from './plain-key-context';
export * from './recorded-upstream.server';
export * from './recorded-upstream.session';
export * from './upstream-failure';
export * from './video-plan';
export * from './hostile-urls';
