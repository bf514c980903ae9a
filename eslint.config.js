import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const SERVER = 'apps/server/src';

/**
 * The server's layers, low to high (docs/architecture.md): a folder may import its own layer and the ones
 * below, never one above. Each entry names the folders of a layer and the folders above it.
 */
const LAYERS = [
  { files: [`${SERVER}/lib/**`, `${SERVER}/db/**`, `${SERVER}/shared/**`, `${SERVER}/config.ts`], above: ['mail', 'payments', 'modules', 'gateway', 'http', 'ops', 'main'] },
  { files: [`${SERVER}/mail/**`, `${SERVER}/payments/**`], above: ['modules', 'gateway', 'http', 'ops', 'main'] },
  { files: [`${SERVER}/modules/**`], above: ['gateway', 'http', 'ops', 'main'] },
  { files: [`${SERVER}/gateway/**`], above: ['http', 'ops', 'main'] },
  { files: [`${SERVER}/http/**`, `${SERVER}/ops/**`], above: ['main'] },
];

/** Where Kysely queries may be built: repositories, the database setup and its migrations. */
const QUERY_PLACES = [
  `${SERVER}/**/*-repository.ts`,
  `${SERVER}/db/**`,
];

const TESTS = ['**/*.test.{ts,tsx}', '**/test/**', '**/e2e/**', 'scripts/**', 'bench/**'];

const QUERY_MESSAGE = 'Queries live in a *-repository.ts of the feature (docs/architecture.md); call the repository.';

/** Relative imports reaching into a folder of a higher layer (`../../http/errors`, `../main`). */
const layerPatterns = (above) =>
  above.map((folder) => ({
    regex: folder === 'main' ? '^\\.{1,2}/(\\.\\./)*main(\\.[jt]s)?$' : `^\\.{1,2}/(\\.\\./)*${folder}(/|$)`,
    message: `${folder}/ is a higher layer: move what is needed down (shared/, db/, lib/) or pass it in (docs/architecture.md).`,
  }));

function layerRules(above, queries) {
  return {
    'no-restricted-imports': [
      'error',
      {
        paths: queries ? [] : [{ name: 'kysely', allowTypeImports: true, message: QUERY_MESSAGE }],
        patterns: layerPatterns(above),
      },
    ],
    'no-restricted-syntax': queries
      ? 'off'
      : [
          'error',
          { selector: "CallExpression[callee.property.name=/^(selectFrom|selectNoFrom|insertInto|replaceInto|updateTable|deleteFrom|mergeInto|getExecutor)$/]", message: QUERY_MESSAGE },
          { selector: "TaggedTemplateExpression[tag.name='sql']", message: QUERY_MESSAGE },
          { selector: "CallExpression[callee.object.name='sql']", message: QUERY_MESSAGE },
        ],
  };
}

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', 'test-results/**', 'artifacts/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'error',
    },
  },
  {
    files: ['apps/server/src/db/migrations/**'],
    // Migrations are frozen in time and must not import the app's evolving table types (STYLE.md §8).
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  ...LAYERS.flatMap(({ files, above }) => [
    { files, ignores: QUERY_PLACES, rules: layerRules(above, false) },
    // A nested array in `files` means all of its patterns must match: the layer's folders and a query place.
    { files: files.flatMap((f) => QUERY_PLACES.map((q) => [f, q])), rules: layerRules(above, true) },
  ]),
  {
    files: TESTS,
    rules: { '@typescript-eslint/no-explicit-any': 'off', 'no-console': 'off', 'no-restricted-imports': 'off', 'no-restricted-syntax': 'off' },
  },
);
