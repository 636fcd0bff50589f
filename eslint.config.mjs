import js from '@eslint/js';
import tseslint from 'typescript-eslint';

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
);
