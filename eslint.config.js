import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * The layering rules of the house (README "Architecture"): each block names
 * what a folder may not import. ESLint applies the last matching
 * `no-restricted-imports`, so a block repeats the patterns of the wider one.
 */
const layer = (message, group) => ({ group, message });
const browserNeverServer = layer('The browser app never reaches into the server: its types come from the OpenAPI document.', ['**/server/**']);
const pageNeverWorker = layer('The page talks to the service worker through the contracts in src/offline/, never its code.', ['**/sw/**']);
const notTheCompositionRoot = layer('Modules and plugins take narrow dependencies; only app.ts and services.ts know every service.', [
  '**/services.js',
  '**/augment.js',
  '**/app.js',
]);

/** A string replacement reads `$'`, `$&` and `` $` `` in the value as patterns (issue 30 finding 6). */
const dataInReplacement = ['TemplateLiteral[expressions.length>0]', 'BinaryExpression', 'Identifier', 'MemberExpression', 'CallExpression'].map((kind) => ({
  selector: `CallExpression[callee.property.name=/^replace(All)?$/][arguments.length=2] > ${kind}.arguments:nth-child(2)`,
  message: 'Data in a String.replace replacement is read as $-patterns: pass an inline replacer function, or splice by index.',
}));

export default tseslint.config(
  { ignores: ['dist', '.bench-build', 'dev-dist', 'coverage', 'test-results', 'playwright-report', 'data', 'src/api/schema.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { 'import-x': importX },
    settings: {
      // import-x must parse TypeScript to follow imports through files it does not lint itself.
      'import-x/extensions': importX.flatConfigs.typescript.settings['import-x/extensions'],
      'import-x/parsers': importX.flatConfigs.typescript.settings['import-x/parsers'],
      'import-x/resolver-next': [
        createTypeScriptImportResolver({ project: ['tsconfig.json', 'server/tsconfig.json', 'sw/tsconfig.json'], noWarnOnMultipleProjects: true }),
      ],
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // No import cycles in shipped code, type-only imports included: a type cycle through the
    // composition root is how a value cycle starts (review 2026-11 §3a).
    files: ['server/**/*.ts', 'src/**/*.{ts,tsx}', 'sw/**/*.ts', 'common/**/*.ts'],
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': ['error', { patterns: [browserNeverServer, pageNeverWorker] }],
    },
  },
  {
    files: ['src/ui/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [browserNeverServer, pageNeverWorker, layer('Shared UI knows no product feature: features use ui, not the other way.', ['**/features/**'])],
        },
      ],
    },
  },
  {
    files: ['sw/**/*.ts'],
    languageOptions: { globals: globals.serviceworker },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            browserNeverServer,
            layer('The service worker imports contracts from src/offline/ and src/api/, never a screen feature.', ['**/src/features/**']),
          ],
        },
      ],
    },
  },
  { files: ['server/**/*.ts', 'scripts/**/*.{ts,mjs}', 'tests/**/*.{ts,tsx,mjs}', '*.config.{ts,js}'], languageOptions: { globals: globals.node } },
  {
    // common/ is built into the server, the page and the worker alike: plain rules over plain data.
    files: ['common/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [layer('common/ is shared by the server, the page and the worker, so it imports none of them.', ['**/server/**', '**/src/**', '**/sw/**'])],
        },
      ],
    },
  },
  {
    files: ['server/modules/**/*.ts', 'server/plugins/**/*.ts', 'server/jobs/**/*.ts', 'server/mail/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [notTheCompositionRoot] }] },
  },
  {
    files: ['server/db/**/*.ts', 'server/storage/**/*.ts', 'server/lib/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [notTheCompositionRoot, layer('db/, storage/ and lib/ sit below the modules and never import them.', ['**/modules/**', '**/plugins/**'])] },
      ],
    },
  },
  {
    // A string replacement reads `$'`, `$&` and `` $` `` in the value as patterns, so data built into one corrupts
    // the result (issue 30 finding 6): write data with a replacer function, or splice by index.
    files: ['server/**/*.ts', 'src/**/*.{ts,tsx}', 'sw/**/*.ts', 'common/**/*.ts'],
    rules: { 'no-restricted-syntax': ['error', ...dataInReplacement] },
  },
  {
    // Routes get what they need as plugin options from their module's index.ts (issue 31.2); a bag of every
    // service on the app or request (`app.services`) would let any route reach any module again.
    // ESLint applies the last matching `no-restricted-syntax`, so this block repeats the replacement rule.
    files: ['server/modules/**/*.ts', 'server/plugins/**/*.ts', 'server/jobs/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...dataInReplacement,
        {
          selector: "MemberExpression[property.name='services']",
          message: "Modules, plugins and jobs take narrow dependencies as plugin options or arguments, never the app's services.",
        },
      ],
    },
  },
  {
    // Migrations are frozen in time: they type the database loosely on purpose.
    files: ['server/db/migrations/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
