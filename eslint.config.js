// Layering, enforced (VS Code's code-layering habit). Who may import whom:
//   contract  <- everything (pure TS: the UI<->engine API, scenario types and schema)
//   db, servers         <- contract
//   engine/<folder>     <- each engine sub-folder is its own element with its own list (below)
//   reproduce           <- contract, engine, db (the seed reproduction harness: a consumer, like cli)
//   cli                 <- contract, engine, reproduce, db
// Tests (*.test.ts) and test support (test-support/) of an engine folder may use the whole engine (and scripts/ tooling).
//   electron-main       <- contract, engine, db      electron-preload <- contract
//   renderer            <- contract only (talks to the host through window.loadscope), and the generated scenario JSON Schema;
//                          inside it: shell <- views (run, history, compare, trends) <- results <- the rest <- charts <- ui
//   packaging (electron-builder config checks, native rebuild) <- electron-main, engine, servers, contract
// A file that no element covers is an error (boundaries/no-unknown-files).
import boundaries from 'eslint-plugin-boundaries';
import tseslint from 'typescript-eslint';
import noImportCycle from './scripts/lint/no-import-cycle.mjs';

const engineAll = ['engine', 'engine-base', 'engine-executors', 'engine-driver', 'engine-supervisor', 'engine-scenario', 'engine-report', 'engine-compare', 'engine-export', 'engine-run', 'engine-host', 'engine-net', 'engine-library', 'engine-k6', 'engine-import-requests', 'engine-record', 'engine-diagnosis', 'engine-tests'];
// The renderer's pages, each its own room: they may share what lies below them, never one another.
const rendererViews = ['run', 'history', 'compare', 'trends'];
const rendererBelowViews = ['renderer-results', 'renderer', 'renderer-charts', 'renderer-ui', 'contract'];
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
        { type: 'engine-tests', pattern: ['engine/**/*.test.ts', 'engine/**/test-support/**'], mode: 'full' },
        { type: 'engine-base', pattern: 'engine/{paths,version,machine-info,db-path,event-bus,regular-file,grpc-proto}.ts', mode: 'full' },
        { type: 'engine-executors', pattern: 'engine/driver/executors/**', mode: 'full' },
        { type: 'engine-driver', pattern: 'engine/driver/**', mode: 'full' },
        { type: 'engine-supervisor', pattern: 'engine/supervisor/**', mode: 'full' },
        { type: 'engine-scenario', pattern: 'engine/scenario/**', mode: 'full' },
        { type: 'engine-report', pattern: 'engine/report/**', mode: 'full' },
        { type: 'engine-compare', pattern: 'engine/compare/**', mode: 'full' },
        { type: 'engine-export', pattern: 'engine/export/**', mode: 'full' },
        { type: 'engine-run', pattern: 'engine/run/**', mode: 'full' },
        // The engine process's entry: it runs the facade, so it alone in host/ may import it (nothing imports it).
        { type: 'engine-host-entry', pattern: 'engine/host/engine-child.ts', mode: 'full' },
        { type: 'engine-host', pattern: 'engine/host/**', mode: 'full' },
        { type: 'engine-library', pattern: 'engine/library/**', mode: 'full' },
        { type: 'engine-net', pattern: 'engine/net/**', mode: 'full' },
        { type: 'engine-k6', pattern: 'engine/k6/**', mode: 'full' },
        { type: 'engine-import-requests', pattern: 'engine/import-requests/**', mode: 'full' },
        { type: 'engine-record', pattern: 'engine/record/**', mode: 'full' },
        { type: 'engine-diagnosis', pattern: 'engine/diagnosis/**', mode: 'full' },
        { type: 'engine', pattern: 'engine/**', mode: 'full' },
        { type: 'reproduce', pattern: 'reproduce/**', mode: 'full' },
        { type: 'cli', pattern: 'cli/**', mode: 'full' },
        { type: 'electron-preload', pattern: 'electron/preload*.ts', mode: 'full' },
        { type: 'electron-main', pattern: 'electron/**', mode: 'full' },
        // The renderer's rooms, top to bottom: the shell; the views; the results display they share;
        // the rest (scenarios, thresholds, capacity, k6, ...); charts; ui.
        { type: 'renderer-shell', pattern: 'renderer/{App,main}.tsx', mode: 'full' },
        ...rendererViews.map((view) => ({ type: `renderer-${view}`, pattern: `renderer/${view}/**`, mode: 'full' })),
        { type: 'renderer-results', pattern: 'renderer/results/**', mode: 'full' },
        { type: 'renderer-charts', pattern: 'renderer/charts/**', mode: 'full' },
        { type: 'renderer-ui', pattern: 'renderer/ui/**', mode: 'full' },
        { type: 'renderer', pattern: 'renderer/**', mode: 'full' },
        { type: 'e2e', pattern: 'e2e/**', mode: 'full' },
        { type: 'bench', pattern: 'bench/**', mode: 'full' },
        // The published scenario JSON Schema (generated from contract/): the code editor's completion and hover docs.
        { type: 'scenario-schema', pattern: 'scenarios/scenario.schema.json', mode: 'full' },
        { type: 'packaging', pattern: 'packaging/**', mode: 'full' },
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
            { from: 'engine-base', allow: ['engine-base', 'contract', 'servers'] },
            { from: 'engine-executors', allow: ['engine-executors', 'engine-driver', 'engine-net', 'contract'] },
            { from: 'engine-driver', allow: ['engine-driver', 'engine-executors', 'engine-net', 'engine-base', 'contract'] },
            { from: 'engine-supervisor', allow: ['engine-supervisor', 'engine-net', 'engine-base', 'contract', 'servers'] },
            { from: 'engine-scenario', allow: ['engine-scenario', 'engine-executors', 'engine-base', 'contract'] },
            { from: 'engine-report', allow: ['engine-report', 'engine-scenario', 'contract'] },
            { from: 'engine-compare', allow: ['engine-compare', 'contract'] },
            // a run's reports carry its diagnosis ("What happened"), made from the stored run they read
            { from: 'engine-export', allow: ['engine-export', 'engine-report', 'engine-compare', 'engine-diagnosis', 'contract', 'db'] },
            { from: 'engine-run', allow: ['engine-run', 'engine-driver', 'engine-executors', 'engine-supervisor', 'engine-scenario', 'engine-report', 'engine-library', 'engine-base', 'contract', 'db'] },
            { from: 'engine-library', allow: ['engine-library', 'engine-scenario', 'engine-base', 'contract', 'db'] },
            { from: 'engine-host', allow: ['engine-host', 'engine-base', 'contract'] },
            { from: 'engine-host-entry', allow: ['engine', 'engine-host', 'engine-base', 'contract'] },
            { from: 'engine-net', allow: ['engine-net', 'contract'] },
            { from: 'engine-k6', allow: ['engine-k6', 'engine-run', 'engine-driver', 'engine-executors', 'engine-supervisor', 'engine-scenario', 'engine-report', 'engine-base', 'engine-net', 'contract', 'db'] },
            // HAR and curl in, a scenario out: it reuses the scenario's parser, limits and validation, nothing of a run.
            { from: 'engine-import-requests', allow: ['engine-import-requests', 'engine-scenario', 'engine-base', 'contract'] },
            // a browser's traffic in, a journey out through the HAR importer: nothing of a run, the store or the driver
            { from: 'engine-record', allow: ['engine-record', 'engine-import-requests', 'engine-base', 'contract'] },
            // the diagnosis's rules are pure functions of a stored run (contract types), so nothing else
            { from: 'engine-diagnosis', allow: ['engine-diagnosis', 'contract'] },
            { from: 'engine', allow: [...engineAll, 'contract', 'db', 'servers'] },
            // and the repo's own lint scripts, which the rule tests run (engine/unused-exports.test.ts)
            { from: 'engine-tests', allow: [...engineAll, 'contract', 'db', 'servers', 'tooling'] },
            { from: 'reproduce', allow: ['reproduce', ...engineAll, 'db', 'contract'] },
            { from: 'cli', allow: ['cli', 'reproduce', ...engineAll, 'db', 'contract'] },
            { from: 'electron-main', allow: ['electron-main', ...engineAll, 'db', 'contract'] },
            { from: 'electron-preload', allow: ['contract'] },
            // No arrow back up in the renderer: a view may import the shared results display, never
            // another view; results imports no view; charts imports only ui.
            { from: 'renderer-shell', allow: ['renderer-shell', ...rendererViews.map((view) => `renderer-${view}`), ...rendererBelowViews] },
            ...rendererViews.map((view) => ({ from: `renderer-${view}`, allow: [`renderer-${view}`, ...rendererBelowViews] })),
            { from: 'renderer-results', allow: ['renderer-results', 'renderer', 'renderer-charts', 'renderer-ui', 'contract'] },
            { from: 'renderer', allow: ['renderer', 'renderer-charts', 'renderer-ui', 'contract', 'scenario-schema'] },
            { from: 'renderer-charts', allow: ['renderer-charts', 'renderer-ui', 'contract'] },
            { from: 'renderer-ui', allow: ['renderer-ui', 'contract'] },
            { from: 'e2e', allow: ['e2e', ...engineAll, 'db', 'contract', 'cli'] },
            { from: 'bench', allow: ['bench', ...engineAll, 'db', 'contract', 'servers'] },
            { from: 'packaging', allow: ['packaging', 'tooling', 'electron-main', ...engineAll, 'servers', 'contract'] },
            { from: 'tooling', allow: ['tooling'] },
          ],
        },
      ],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // No import cycle anywhere, type-only imports included (import-x's no-cycle skips those).
    files: ['**/*.{ts,tsx}'],
    plugins: { loadscope: { rules: { 'no-import-cycle': noImportCycle } } },
    rules: { 'loadscope/no-import-cycle': 'error' },
  },
  {
    // Only the desktop shell may touch Electron.
    files: ['contract/**', 'engine/**', 'db/**', 'servers/**', 'cli/**', 'reproduce/**', 'renderer/**'],
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
