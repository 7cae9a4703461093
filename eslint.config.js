// Layer boundaries from DESIGN.md, enforced here so a wrong import fails the build instead of a review.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const nodeBuiltins = { group: ['node:*', 'fs', 'path', 'os', 'child_process', 'http', 'crypto'], message: 'This layer runs without Node.' };
const electron = { group: ['electron', 'electron/*'], message: 'Only src-main/electron may import electron.' };
const mainFromOutside = { group: ['**/src-main/**', '../src-main', '../../src-main'], message: 'Only src-shared is shared between processes.' };
const rendererFromOutside = { group: ['**/src-renderer/**'], message: 'The main process never imports the renderer.' };
const sqlOutsideStore = {
  group: ['drizzle-orm', 'drizzle-orm/*', 'better-sqlite3', '**/db/schema'],
  message: 'SQL lives in src-main/core/store: call (or add) a store function taking db.',
};
/**
 * Modules under tools/ that do no I/O (no node:, no yaml, no store), so the replay may import them. A module added
 * here gets the `ioFromPureToolModule` restrictions below.
 */
const PURE_TOOL_MODULES = ['run-skill-tool'];
const toolsWithIo = {
  group: ['**/tools/**', ...PURE_TOOL_MODULES.map((name) => `!**/tools/${name}`)],
  message: 'The replay is pure: it imports only tools/ modules listed in PURE_TOOL_MODULES (eslint.config.js).',
};
const replayFromTools = { group: ['**/replay/**', '**/replay'], message: 'Tools know nothing of the replay: the engine joins them.' };
const ioFromPureToolModule = {
  group: ['yaml', '@modelcontextprotocol/*', '**/store/**', '**/store', './*', '../*', ...PURE_TOOL_MODULES.map((name) => `!./${name}`)],
  message: 'A pure tool module imports no I/O and no other tools module.',
};
const unsanitisedHtml = { selector: "JSXAttribute[name.name='dangerouslySetInnerHTML']", message: 'Model output never reaches the DOM unsanitised.' };
const formatterPerCall = {
  selector: "CallExpression[callee.property.name='toLocaleString'][arguments.length>0]",
  message: 'A locale argument builds a new ICU formatter on every call: use formatCount (src-shared/format-count.ts) or a kept Intl formatter.',
};
const tests = ['**/*.test.ts', '**/*.test.tsx', '**/testing.ts', '**/testing/**', '**/test-database.ts', '**/*.fixture.ts', '**/replay-fixture.ts'];

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'db/migrations/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-syntax': ['error', unsanitisedHtml],
    },
  },
  {
    files: ['src-main/**', 'src-renderer/**', 'src-shared/**'],
    ignores: tests,
    rules: { 'no-restricted-syntax': ['error', unsanitisedHtml, formatterPerCall] },
  },
  {
    files: ['src-shared/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [nodeBuiltins, electron, mainFromOutside, rendererFromOutside, { group: ['react', 'react-dom', 'zustand'], message: 'src-shared is plain TypeScript.' }] }],
    },
  },
  {
    files: ['src-main/core/**', 'src-main/web/**', 'src-main/cli/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [electron, rendererFromOutside, sqlOutsideStore] }] },
  },
  {
    // Tests and test helpers seed and inspect the database directly, and may reach across layers to set a scene.
    files: ['src-main/core', 'src-main/web', 'src-main/cli'].flatMap((folder) => tests.map((pattern) => `${folder}/${pattern}`)),
    rules: { 'no-restricted-imports': ['error', { patterns: [electron, rendererFromOutside] }] },
  },
  {
    files: ['src-main/core/replay/**'],
    ignores: tests,
    rules: { 'no-restricted-imports': ['error', { patterns: [electron, rendererFromOutside, sqlOutsideStore, toolsWithIo] }] },
  },
  {
    files: ['src-main/core/tools/**'],
    ignores: tests,
    rules: { 'no-restricted-imports': ['error', { patterns: [electron, rendererFromOutside, sqlOutsideStore, replayFromTools] }] },
  },
  {
    files: PURE_TOOL_MODULES.map((name) => `src-main/core/tools/${name}.ts`),
    rules: {
      'no-restricted-imports': ['error', { patterns: [nodeBuiltins, electron, rendererFromOutside, sqlOutsideStore, replayFromTools, ioFromPureToolModule] }],
    },
  },
  {
    files: ['src-main/core/replay/wires/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [nodeBuiltins, electron, rendererFromOutside, sqlOutsideStore, { group: ['**/store/**', '**/store', '**/providers/**', '**/engine/**', '**/tools/**'], message: 'Converters are pure: neutral types in, wire JSON out.' }] },
      ],
    },
  },
  {
    files: ['src-main/core/store/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [electron, rendererFromOutside, { group: ['**/providers/**', '**/replay/**', '**/engine/**'], message: 'The store knows nothing of providers or replay.' }] }],
    },
  },
  {
    files: ['src-renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': ['error', { patterns: [nodeBuiltins, electron, mainFromOutside] }],
    },
  },
);
