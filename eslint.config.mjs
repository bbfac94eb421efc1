import nx from '@nx/eslint-plugin';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import globals from 'globals';

/** What apps, libs and the test kit may import: everything but a concrete channel type and an app. */
const APP_AND_LIB_DEPENDENCIES = [
  'type:lib',
  'type:provider-core',
  'type:provider-registry',
  'type:dialect',
  'type:testing',
  'type:simulator',
];

export default [
  {
    ignores: [
      '**/node_modules',
      '**/dist',
      '**/generated',
      'bench/results',
      'bench/node_modules',
      'tmp',
      'coverage',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...nx.configs['flat/base'],
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'error',
      // The architecture, enforced: adapters know only the adapter core and the dialects; libs never
      // import apps; the gateway reaches concrete channel types only through the registry.
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          depConstraints: [
            { sourceTag: 'type:provider-core', onlyDependOnLibsWithTags: [] },
            { sourceTag: 'type:simulator', onlyDependOnLibsWithTags: [] },
            { sourceTag: 'type:dialect', onlyDependOnLibsWithTags: ['type:provider-core'] },
            { sourceTag: 'type:provider', onlyDependOnLibsWithTags: ['type:provider-core', 'type:dialect'] },
            {
              sourceTag: 'type:provider-registry',
              onlyDependOnLibsWithTags: ['type:provider', 'type:provider-core', 'type:dialect'],
            },
            {
              sourceTag: 'type:lib',
              onlyDependOnLibsWithTags: APP_AND_LIB_DEPENDENCIES,
            },
            {
              sourceTag: 'type:testing',
              onlyDependOnLibsWithTags: APP_AND_LIB_DEPENDENCIES,
            },
            {
              sourceTag: 'type:app',
              onlyDependOnLibsWithTags: APP_AND_LIB_DEPENDENCIES,
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.mjs', '**/*.js', '**/*.cjs'],
    languageOptions: { globals: globals.node },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['**/*.spec.ts', '**/*.int-spec.ts', 'tools/**', 'bench/**'],
    rules: { 'no-console': 'off' },
  },
  prettier,
];
