import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { importX, createNodeResolver } from 'eslint-plugin-import-x';

// The start of a SQL statement in a string or template literal (any case, leading blanks).
const SQL_START =
  '/^\\s*(SELECT|INSERT\\s+INTO|UPDATE\\s+\\S+\\s+(\\S+\\s+)?SET|DELETE\\s+FROM|WITH\\s+\\S+\\s+AS|CREATE|ALTER|DROP|LOCK|TRUNCATE|ANALYZE|VACUUM)\\b/i';
const SQL_MESSAGE =
  "SQL belongs in a repository: move the statement into the area's repo.ts (or a `<name>-repo.ts` next to it) as a function that takes a Queryable (db or tx), and call that function here. Transactions stay in the service. See docs/architecture.md.";

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'coverage/**', 'bench-out/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // SQL lives in repositories (architecture.md): statements, `.query()` calls and the
    // row helper `first()` anywhere else in the server fail the lint.
    files: ['packages/server/src/**/*.ts'],
    ignores: [
      'packages/server/src/**/repo.ts',
      'packages/server/src/**/*-repo.ts',
      'packages/server/src/db/**',
      'packages/server/src/test/**',
      'packages/server/src/**/*.test.ts',
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: `Literal[value=${SQL_START}]`, message: SQL_MESSAGE },
        { selector: `TemplateElement[value.raw=${SQL_START}]`, message: SQL_MESSAGE },
        // The Queryable surface, whatever the statement text looks like.
        { selector: "CallExpression[callee.property.name='query']", message: SQL_MESSAGE },
        // exec() with literal text (PGlite's raw SQL), but not a regular expression literal's.
        {
          selector:
            "CallExpression[callee.property.name='exec']:not([callee.object.regex])[arguments.0.type=/Literal$/]",
          message: SQL_MESSAGE,
        },
        {
          selector: "ImportDeclaration[source.value=/db.index/] ImportSpecifier[imported.name='first']",
          message: SQL_MESSAGE,
        },
      ],
    },
  },
  {
    files: ['packages/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    // Pickers mark "today" and answer 今天 / 此刻 in UTC+8 only when built on the console's
    // clock (components/pickers.ts); antd's own follow the browser's zone.
    files: ['packages/web/**/*.{ts,tsx}'],
    ignores: ['packages/web/src/components/pickers.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'antd',
              importNames: ['DatePicker', 'TimePicker', 'Calendar'],
              message:
                "Import DatePicker / TimePicker from components/pickers.ts (today in UTC+8), not from 'antd'.",
            },
          ],
        },
      ],
    },
  },
  {
    // No import cycles between modules: a cycle means two areas depend on each other and
    // whichever loads first sees the other half-initialised. `import type` does not count
    // (it is erased at build time), so types may be shared without restructuring.
    files: ['packages/*/src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.json'] })],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
);
