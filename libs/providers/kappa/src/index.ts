export * from './kappa-error.classifier';
export * from './kappa-text.adapter';
export * from './kappa-usage.util';
