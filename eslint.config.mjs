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
  'type:standalone',
];

export default [
  {
    ignores: ['**/node_modules', '**/dist', '**/generated', 'bench/results', 'tmp', 'coverage'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...nx.configs['flat/base'],
  {
    files: ['**/*.ts', '**/*.tsx'],
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
            // A standalone library imports no other library, so that the simulators may share it.
            { sourceTag: 'type:standalone', onlyDependOnLibsWithTags: [] },
            { sourceTag: 'type:simulator', onlyDependOnLibsWithTags: ['type:standalone'] },
            // The console is browser code that talks to the gateway over HTTP only (its tsconfig maps no
            // @gateway/* path); its end-to-end test starts the stack with the test kit and the simulators.
            { sourceTag: 'type:console', onlyDependOnLibsWithTags: ['type:testing', 'type:simulator'] },
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
    // The console runs in the browser: browser globals, and no Node ones.
    files: ['apps/console/src/**/*.ts', 'apps/console/src/**/*.tsx'],
    languageOptions: { globals: globals.browser },
  },
  {
    // class-validator's index loads every check it has (libphonenumber-js's metadata among them).
    files: ['apps/**/*.ts', 'libs/**/*.ts'],
    ignores: ['**/*.spec.ts', '**/*.int-spec.ts', 'libs/providers/core/src/class-validator.parts.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'class-validator',
              message:
                'Import it from @gateway/providers-core (class-validator.parts.ts), which loads each part alone.',
            },
          ],
        },
      ],
    },
  },
  {
    // Services return values; only the generation pipeline and controllers write HTTP answers.
    files: ['apps/gateway/src/**/*.service.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'fastify',
              importNames: ['FastifyReply'],
              message: 'Return a value: the pipeline or the controller writes the answer.',
              allowTypeImports: false,
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.spec.ts', '**/*.int-spec.ts', 'tools/**', 'bench/**'],
    rules: { 'no-console': 'off' },
  },
  prettier,
];
