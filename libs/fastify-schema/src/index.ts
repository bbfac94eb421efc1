export { lazySchemaCompilers } from './lazy-schema-compilers';
