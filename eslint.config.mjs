import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * Module boundaries. Each folder under services/ is imported by everything outside it
 * only through its public entry point (index.ts: `../graph`, `../../graph`,
 * `../graph/index`), so a service can rearrange its internals (store/, commands/,
 * deltas/, ...) without breaking another. Unit tests (*.spec.ts) live in their
 * service's folder and follow the same rule; the integration tests under test/ are
 * exempt. shared/ holds building blocks for every service and imports none of them.
 */
const SERVICES = readdirSync(new URL('./services', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const INDEX_ONLY =
  'Import another service only through its index.ts (e.g. ../graph), never a file inside it.';
const deepImportOf = (services) => ({
  regex: `^(\\.\\./)+(${services.join('|')})/(?!index$).+`,
  message: INDEX_ONLY,
});
const boundaries = [
  ...SERVICES.map((service) => ({
    files: [`services/${service}/**/*.ts`, `services/${service}/**/*.tsx`],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [deepImportOf(SERVICES.filter((other) => other !== service))] },
      ],
    },
  })),
  {
    files: ['tools/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [{ regex: '^(\\.\\./)+services/[^/]+/(?!index$).+', message: INDEX_ONLY }],
        },
      ],
    },
  },
  {
    // A benchmark's bare-Cypher baseline is the very named query a service runs, timed
    // without HTTP: benches may also import a service's store/ queries, nothing else.
    files: ['bench/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^(\\.\\./)+services/[^/]+/(?!index$|store/).+', message: INDEX_ONLY },
          ],
        },
      ],
    },
  },
  {
    files: ['shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+services(/|$)',
              message: 'shared/ is below every service: it must not import services/.',
            },
          ],
        },
      ],
    },
  },
];

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'dist/**',
      'web/dist/**',
      '.data/**',
      '.run/**',
      'deploy/**',
      'shared/api/openapi.generated.ts',
      '**/*.cjs',
      '**/*.mjs',
      '**/*.js',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...boundaries,
  {
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: 'ExportDefaultDeclaration', message: 'No default exports (house style).' },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    // Test and bench code reads JSON answers that the contract helper has already
    // validated against the OpenAPI document; `any` keeps those assertions readable.
    files: ['test/**/*.ts', 'bench/**/*.ts', '**/*.spec.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.ts'],
    ignores: ['shared/config/**'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message: 'Read configuration through shared/config (config.ts).',
        },
      ],
    },
  },
  {
    // A service's public entry point offers functions, commands, routes, presenters and
    // types; its raw named queries stay in its store/, except the schema statement
    // lists that schema creation runs.
    files: ['services/*/index.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: 'ExportDefaultDeclaration', message: 'No default exports (house style).' },
        {
          selector:
            'ExportNamedDeclaration[source.value=/\\/store\\//] > ExportSpecifier[exported.name!=/Schema$/]',
          message: 'Export a function of the service, not a raw query from its store/.',
        },
      ],
    },
  },
);
