export * from './compat-error.classifier';
export * from './compat-text.adapter';
export * from './compat-usage.util';
