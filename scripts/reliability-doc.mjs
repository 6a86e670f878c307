// Writes docs/reliability.md from the reliability tests: runs them (vitest, JSON reporter), then
// lists per test file what it protects (its header comment) and every input or fault tried (each
// test's name) with its result. cli/reliability-doc.test.ts checks the document names exactly the
// tests that exist, so a new or renamed test needs `node scripts/reliability-doc.mjs` again.
// A test that did not run is listed as "skipped (its reason)" (the reason skipUnless / skipNow of
// engine/test-support/skip.ts keep in the test's meta), never as held.
//   node scripts/reliability-doc.mjs            run the tests (npm run build first), write the doc
//   node scripts/reliability-doc.mjs --rows results.json   print the rows of a vitest JSON report
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The areas, in the order the document shows them. */
export const RELIABILITY_TESTS = [
  ['Hostile input: the browser host', ['cli/host/ws-frames.test.ts', 'cli/host/host-property.test.ts', 'cli/host/host-faults.test.ts', 'cli/host/open-browser.test.ts']],
  ['Hostile input: scenarios', ['engine/scenario/limits.test.ts', 'engine/driver/measure/endpoint-windows.test.ts', 'engine/scenario/validate-property.test.ts', 'engine/scenario/prototype-keys.test.ts', 'engine/scenario/base-url.test.ts', 'engine/scenario/placeholders.test.ts', 'engine/scenario/data-files.test.ts', 'engine/scenario/flow-validate.test.ts', 'contract/extract.test.ts', 'engine/scenario/request-bounds.test.ts', 'contract/regex-shape.test.ts', 'engine/scenario/quick-profile.test.ts', 'engine/scenario/protocol-spellings.test.ts', 'cli/cli-traceparent.test.ts', 'engine/scenario/checks-validate.test.ts', 'engine/scenario/ws-stream-validate.test.ts', 'engine/scenario/builtin-index.test.ts']],
  ['Hostile input: values placed into requests', ['engine/driver/requests/variables.test.ts', 'engine/driver/requests/request-compile.test.ts', 'engine/driver/requests/flow.test.ts', 'engine/scenario/json-body-values.test.ts', 'engine/driver/requests/request-bound.test.ts', 'engine/driver/transport/traceparent.test.ts']],
  ['Hostile input: imports', ['engine/k6/import/import-limits.test.ts', 'cli/commands/import-limits.test.ts', 'engine/import-requests/import-requests.test.ts', 'cli/cli-import-requests.test.ts', 'engine/import-requests/api-descriptions.test.ts', 'cli/cli-import-descriptions.test.ts', 'engine/import-requests/description-upload.test.ts', 'cli/host/host-uploads.test.ts', 'cli/import-nothing-stored.test.ts', 'engine/import-requests/postman-credentials.test.ts', 'engine/k6/import/import-checks.test.ts', 'engine/k6/import/import-streams.test.ts']],
  ['Hostile input: recordings made into journeys (correlation, credentials)', ['engine/import-requests/correlate.test.ts', 'engine/import-requests/credentials.test.ts', 'engine/import-requests/import-call.test.ts', 'cli/import-har-hostile.test.ts']],
  ['Hostile input: data files kept with library scenarios', ['engine/library/kept-files-hostile.test.ts', 'cli/cli-library-data.test.ts', 'db/kept-file-store.test.ts']],
  ['Hostile input: recording in a browser', ['engine/record/cdp-capture.test.ts', 'engine/record/record-target.test.ts', 'engine/record/record-session.test.ts', 'engine/record/profile-folder.test.ts', 'cli/cli-record.test.ts', 'renderer/scenarios/record-start.test.ts', 'electron/desktop-recording.test.ts']],
  ['Hostile input: files a scenario or a command reads', ['engine/regular-file.test.ts', 'engine/scenario/data-file-secrets.test.ts', 'engine/run/tls-file-input.test.ts', 'cli/file-inputs.test.ts', 'cli/run-example.test.ts', 'cli/cli-validate-grpc.test.ts']],
  ['Hostile responses: Server-Timing and certificates', ['cli/honest-timing.test.ts', 'engine/run/tls-run.test.ts', 'engine/run/tls-client-cert.test.ts', 'engine/k6/k6-tls-probe.test.ts', 'engine/driver/transport/h1-tls.test.ts']],
  ['Hostile responses: deadlines', ['engine/driver/deadlines.test.ts', 'engine/run/driver-watchdog.test.ts', 'engine/driver/admission.test.ts']],
  ['Hostile responses: bodies kept and patterns run', ['engine/driver/requests/body-bounds.test.ts', 'engine/driver/requests/body-includes.test.ts', 'engine/driver/requests/linear-regexp.test.ts', 'contract/check-eval.test.ts']],
  ['Try once: hostile targets, secrets and bad input', ['engine/run/try/try-hostile.test.ts', 'engine/run/try/try-once.test.ts', 'cli/cli-try.test.ts']],
  ['Hostile responses: framing', ['engine/driver/transport/h1-framing.test.ts', 'engine/driver/transport/h1-desync.test.ts', 'cli/cli-error-reasons.test.ts']],
  ['Hostile peers: streams (issue 41: SSE, WebSocket, gRPC)', ['engine/driver/transport/sse.test.ts', 'engine/driver/transport/sse-events.test.ts', 'servers/events.test.ts', 'engine/driver/transport/ws-session.test.ts', 'engine/driver/transport/ws-run.test.ts', 'engine/driver/transport/ws-stall.test.ts', 'engine/driver/transport/silence-timer.test.ts', 'engine/driver/transport/grpc-connection.test.ts', 'engine/run/grpc-run.test.ts', 'servers/grpc-front.test.ts', 'engine/driver/transport/grpc-stall.test.ts', 'engine/k6/k6-streams-real.test.ts']],
  ['Hostile peers: HTTP/2 (issue 42: node:http2 sessions and the frame-by-frame client)', ['engine/driver/transport/node-h2-hostile.test.ts', 'engine/driver/transport/node-h2-differential.test.ts', 'engine/driver/transport/node-h2.test.ts', 'engine/driver/transport/fast-h2-differential.test.ts']],
  ['Generated code: k6 scripts and manifests', ['engine/k6/k6-script-injection.test.ts', 'engine/k6/k6-real-guard.test.ts', 'engine/k6/k6-block-list.test.ts', 'engine/k6/k6-tls.test.ts', 'engine/k6/k8s-yaml.test.ts', 'engine/k6/k6-operator.test.ts', 'engine/k6/k6-carry.test.ts', 'engine/k6/k6-runtime-parity.test.ts']],
  ['Several k6 instances: bad counts, foreign tags, late and stalled instances', ['cli/cli-instances.test.ts', 'engine/k6/import/import-instances.test.ts', 'engine/k6/live-windows.test.ts']],
  ['Generated files: CI summaries and reports', ['cli/ci-files.test.ts', 'engine/export/endpoint-exports.test.ts', 'engine/export/run-name-exports.test.ts', 'engine/export/verdict-exports.test.ts', 'engine/report/render-report.test.ts', 'reproduce/written-files.test.ts', 'engine/export/diagnosis-exports.test.ts', 'cli/format/markdown-diagnosis.test.ts', 'reproduce/reproduction-diagnosis.test.ts', 'engine/export/html-csv-safety.test.ts']],
  ['Terminal output', ['cli/terminal-text.test.ts', 'cli/format/terminal-safe.test.ts', 'cli/closed-output.test.ts']],
  ['Load only to this machine, commands only with consent', ['engine/net/target-guard.test.ts', 'engine/run/consent.test.ts', 'engine/run/consent-files.test.ts', 'engine/k6/k6-consent.test.ts', 'renderer/run/start-with-consent.test.ts', 'cli/k6-stays-on-loopback.test.ts']],
  ['Signals', ['cli/signals.test.ts', 'cli/stop-at-url.test.ts']],
  ['Servers that do not start, and runs stored by another process', ['servers/work-process-start.test.ts', 'engine/watch-runs.test.ts']],
  ['Faults mid-run and in the store', ['engine/run/faults.test.ts', 'engine/run/store-damage.test.ts', 'cli/interrupted-run.test.ts', 'engine/run/orchestrator.test.ts', 'engine/supervisor/orphans.test.ts', 'db/compare-sample.test.ts', 'db/client-timing-store.test.ts', 'db/verdict-store.test.ts', 'engine/export/verdict-keep.test.ts', 'db/stored-protocol.test.ts', 'db/cpu-columns-store.test.ts', 'db/slowest-requests.test.ts', 'db/request-packs.test.ts']],
  ['Small inputs, exports and rendering', ['cli/small-inputs.test.ts', 'renderer/charts/tooltip-html.test.ts', 'renderer/ui/route.test.ts', 'engine/run/zero-request-endpoint.test.ts', 'contract/name-fit.test.ts', 'engine/export/server-samples-exports.test.ts', 'engine/diagnosis/odd-stored-runs.test.ts', 'engine/diagnosis/odd-samples.test.ts', 'renderer/results/evidence-highlight.test.ts', 'engine/diagnosis/import-rules.test.ts', 'engine/diagnosis/odd-shape-inputs.test.ts', 'engine/compare/odd-comparisons.test.ts', 'cli/format/compare-explanation.test.ts', 'contract/stored-phase.test.ts']],
  ['Bounded memory of the bundled servers', ['servers/workloads/leak.test.ts', 'servers/ws-front.test.ts']],
  ['Bounded memory of a run: a store that falls behind, the SQLite page cache', ['engine/driver/measure/row-sink.test.ts', 'engine/run/slow-store.test.ts', 'db/store-page-cache.test.ts']],
  ['Electron', ['electron/electronegativity.test.ts', 'electron/shell.test.ts']],
];

/** The comment block at the top of a test file (after its imports): what the file protects. */
export function headerComment(source) {
  const lines = source.split('\n');
  const start = lines.findIndex((l) => l.startsWith('// '));
  if (start < 0) return '';
  const out = [];
  for (let i = start; i < lines.length && lines[i].startsWith('//'); i++) out.push(lines[i].replace(/^\/\/ ?/, ''));
  return out.join(' ');
}

/** What a test's row says happened: held only where it ran and passed. */
function statusOf(t) {
  if (t.status === 'passed') return 'held';
  if (t.status === 'failed') return 'FAILED';
  if (t.status === 'skipped' || t.status === 'pending') return `skipped (${(t.meta?.skipReason ?? 'no reason given').replace(/\s+/g, ' ').trim()})`;
  return t.status;
}

/** A test's row in the document, from vitest's JSON report: "held: describe > title". */
function rowOf(t) {
  const where = t.ancestorTitles.length > 0 ? `${t.ancestorTitles.join(' > ')}: ` : '';
  return `${statusOf(t)}: ${where}${t.title}`;
}

function runTests(files) {
  const dir = mkdtempSync(join(tmpdir(), 'loadscope-reldoc-'));
  const out = join(dir, 'results.json');
  try {
    const r = spawnSync(join(root, 'node_modules', '.bin', 'vitest'), ['run', '--project', 'unit', '--reporter=json', `--outputFile=${out}`, ...files], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
    const json = JSON.parse(readFileSync(out, 'utf8'));
    return { status: r.status, results: json.testResults };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function main() {
  const files = RELIABILITY_TESTS.flatMap(([, f]) => f);
  const { status, results } = runTests(files);
  const byFile = new Map(results.map((r) => [r.name.slice(root.length + 1), r.assertionResults]));
  const out = [
    '# Reliability: hostile input and faults tried, and what is kept',
    '',
    '<!-- Generated by `node scripts/reliability-doc.mjs` from the tests below; do not edit by hand.',
    '     cli/reliability-doc.test.ts fails when a test here is added, renamed or removed without regenerating. -->',
    '',
    'Each row is a test in the suite (`npm test`): the input or fault it tries and what must hold. Every',
    'test fails without the protection it names; a test that could not run where this was written is',
    'listed as skipped, with the reason. Limits: a scenario is at most 1 MiB of text, 64 levels',
    'of nesting, 64 servers, 64 phases, 256 request templates per phase, 1000 matrix cells, 1000 server',
    'runs (cells x servers) and 64 MB expanded; a page sends the browser host at most 4096 bytes per',
    'WebSocket message; a call body is at most 4 MiB, but one carrying a file (a HAR, an API description,',
    'a scenario bundle, a data file) twice the limit of that file and 1 MiB. An imported k6 result line is at most 1 MiB, a',
    'gzip expands to at most 200 times its size (64 MiB at least), an import holds at most 1,000 server',
    'runs; `scenarios import` reads at most 48 MiB + 1 byte of any file, stream or device (a bundle:',
    'a scenario and its data files). A data file is a regular file of at most 32 MiB, a HAR of at most',
    '64 MiB, a tls.ca / cert / key of at most 1 MiB each; anything else (a FIFO, a device, a folder) is',
    'refused before a byte is read. A data file kept with a library scenario is UTF-8 text of at most',
    '2 MiB under a name with no folder to climb out of; uploads no version or run names are dropped after',
    'a day, and never total more than 64 MiB.',
    '',
  ];
  let failed = 0;
  let skipped = 0;
  for (const [area, areaFiles] of RELIABILITY_TESTS) {
    out.push(`## ${area}`, '');
    for (const file of areaFiles) {
      const tests = byFile.get(file) ?? [];
      out.push(`### ${file}`, '', headerComment(readFileSync(join(root, file), 'utf8')), '');
      for (const t of tests) {
        if (t.status === 'failed') failed++;
        if (t.status !== 'passed' && t.status !== 'failed') skipped++;
        out.push(`- ${rowOf(t)}`);
      }
      out.push('');
    }
  }
  writeFileSync(join(root, 'docs', 'reliability.md'), out.join('\n'));
  console.log(`wrote docs/reliability.md (${results.reduce((n, r) => n + r.assertionResults.length, 0)} tests, ${failed} failed, ${skipped} skipped)`);
  process.exit(status === 0 && failed === 0 ? 0 : 1);
}

/** --rows: each test's row of a JSON report already written, one per line (nothing run, nothing written). */
function printRows(file) {
  for (const r of JSON.parse(readFileSync(file, 'utf8')).testResults) for (const t of r.assertionResults) console.log(rowOf(t));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv[2] === '--rows' && process.argv[3] !== undefined) printRows(process.argv[3]);
  else main();
}
