import type { Command } from 'commander';

type Register = (program: Command) => void;

/**
 * Every verb, one file each, in the order `--help` lists them. Each is imported only when used
 * (cli/main.ts): `loadscope list` must not parse the driver, the exporters or the browser host.
 */
export const verbs: Readonly<Record<string, () => Promise<Register>>> = {
  run: async () => (await import('./run.js')).registerRun,
  try: async () => (await import('./try.js')).registerTry,
  list: async () => (await import('./list.js')).registerList,
  show: async () => (await import('./show.js')).registerShow,
  compare: async () => (await import('./compare.js')).registerCompare,
  baseline: async () => (await import('./baseline.js')).registerBaseline,
  trend: async () => (await import('./trend.js')).registerTrend,
  export: async () => (await import('./export.js')).registerExport,
  'export-k6': async () => (await import('./export-k6.js')).registerExportK6,
  'import-k6': async () => (await import('./import-k6.js')).registerImportK6,
  'import-har': async () => (await import('./import-har.js')).registerImportHar,
  'import-curl': async () => (await import('./import-curl.js')).registerImportCurl,
  'import-openapi': async () => (await import('./import-openapi.js')).registerImportOpenApi,
  'import-postman': async () => (await import('./import-postman.js')).registerImportPostman,
  record: async () => (await import('./record.js')).registerRecord,
  delete: async () => (await import('./delete.js')).registerDelete,
  annotate: async () => (await import('./annotate.js')).registerAnnotate,
  scenarios: async () => (await import('./scenarios.js')).registerScenarios,
  validate: async () => (await import('./validate.js')).registerValidate,
  servers: async () => (await import('./servers.js')).registerServers,
  serve: async () => (await import('./serve.js')).registerServe,
  ui: async () => (await import('./ui.js')).registerUi,
  reproduce: async () => (await import('./reproduce.js')).registerReproduce,
};

/**
 * The verbs a command line needs registered: none for `--version`, the one it names, and every verb
 * otherwise (`--help`, `help run`, no verb, an unknown verb: the listing and "did you mean" see all).
 * The program itself takes no option with a value, so the first word not starting with '-' is the verb.
 */
export function verbsFor(args: readonly string[]): string[] {
  if (args[0] === '--version' || args[0] === '-V') return [];
  const verb = args.find((a) => !a.startsWith('-'));
  return verb !== undefined && Object.hasOwn(verbs, verb) ? [verb] : Object.keys(verbs);
}
