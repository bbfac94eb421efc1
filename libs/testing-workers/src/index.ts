export * from './unadapted-task-kind.scenario';
