// Test helpers of the adapter libraries, kept out of the production entry point.
export * from './collect-text-stream';
export * from './recorded-upstream.server';
