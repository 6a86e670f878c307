// Layering, enforced (VS Code's code-layering habit). Who may import whom:
//   contract  <- everything (pure TS: the UI<->engine API, scenario types and schema)
//   db, servers         <- contract
//   engine              <- contract, db, servers (launch descriptors)
//   cli                 <- contract, engine, db
//   electron-main       <- contract, engine, db      electron-preload <- contract
//   renderer            <- contract only (talks to the host through window.loadscope), and the generated scenario JSON Schema
// A file that no element covers is an error (boundaries/no-unknown-files).
import boundaries from 'eslint-plugin-boundaries';
import tseslint from 'typescript-eslint';

const nodeBuiltins = ['node:*', 'fs', 'path', 'os', 'child_process', 'worker_threads', 'http', 'net', 'crypto', 'zlib', 'url', 'events', 'stream', 'util'];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '**/*.json', '.tmp/**', 'test-results/**'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    plugins: { boundaries },
    settings: {
      'import/resolver': { typescript: { alwaysTryTypes: true }, node: { extensions: ['.ts', '.tsx', '.js'] } },
      'boundaries/include': ['**/*'],
      'boundaries/elements': [
        { type: 'contract', pattern: 'contract/**', mode: 'full' },
        { type: 'db', pattern: 'db/**', mode: 'full' },
        { type: 'servers', pattern: 'servers/**', mode: 'full' },
        { type: 'engine', pattern: 'engine/**', mode: 'full' },
        { type: 'cli', pattern: 'cli/**', mode: 'full' },
        { type: 'electron-preload', pattern: 'electron/preload*.ts', mode: 'full' },
        { type: 'electron-main', pattern: 'electron/**', mode: 'full' },
        { type: 'renderer', pattern: 'renderer/**', mode: 'full' },
        { type: 'e2e', pattern: 'e2e/**', mode: 'full' },
        { type: 'bench', pattern: 'bench/**', mode: 'full' },
        // The published scenario JSON Schema (generated from contract/): the code editor's completion and hover docs.
        { type: 'scenario-schema', pattern: 'scenarios/scenario.schema.json', mode: 'full' },
        { type: 'tooling', pattern: ['scripts/**', 'bin/**', '.ci/**', '*.config.{js,ts,mjs}', 'scenarios/**'], mode: 'full' },
      ],
    },
    rules: {
      'boundaries/no-unknown-files': 'error',
      'boundaries/element-types': [
        'error',
        {
          default: 'disallow',
          rules: [
            { from: 'contract', allow: ['contract'] },
            { from: 'db', allow: ['db', 'contract'] },
            { from: 'servers', allow: ['servers', 'contract'] },
            { from: 'engine', allow: ['engine', 'contract', 'db', 'servers'] },
            { from: 'cli', allow: ['cli', 'engine', 'db', 'contract'] },
            { from: 'electron-main', allow: ['electron-main', 'engine', 'db', 'contract'] },
            { from: 'electron-preload', allow: ['contract'] },
            { from: 'renderer', allow: ['renderer', 'contract', 'scenario-schema'] },
            { from: 'e2e', allow: ['e2e', 'engine', 'db', 'contract', 'cli'] },
            { from: 'bench', allow: ['bench', 'engine', 'db', 'contract', 'servers'] },
            { from: 'tooling', allow: ['tooling'] },
          ],
        },
      ],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Only the desktop shell may touch Electron.
    files: ['contract/**', 'engine/**', 'db/**', 'servers/**', 'cli/**', 'renderer/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [{ name: 'electron', message: 'only electron/ may import electron' }] }] },
  },
  {
    // The UI and the contract run without Node.
    files: ['contract/**', 'renderer/**', 'electron/preload*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'electron', message: 'the preload may import electron; nothing else here may' }], patterns: nodeBuiltins.map((group) => ({ group: [group], message: 'no Node built-ins in the UI or the contract' })) }],
    },
  },
  {
    files: ['electron/preload*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: nodeBuiltins.map((group) => ({ group: [group], message: 'the preload exposes the contract only' })) }] },
  },
);
