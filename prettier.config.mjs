// perf-machinery: prettier-oxc-parser (docs/performance-machinery.md)
// JavaScript and TypeScript are parsed by oxc (Prettier's own native parser plugin) instead of the
// TypeScript compiler's parser: the same output on every file of the workspace, in less CPU.
export default {
  singleQuote: true,
  printWidth: 110,
  trailingComma: 'all',
  plugins: ['@prettier/plugin-oxc'],
};
