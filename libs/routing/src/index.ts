export * from './channel/channel-candidate';
export * from './channel/channel-catalog';
export * from './channel/channel-row.source';
export * from './channel/channel-models.parse';
export * from './circuit/circuit-breaker';
export * from './circuit/circuit-redis.keys';
export * from './secret/channel-secret.cipher';
export * from './selection/channel-selector';
