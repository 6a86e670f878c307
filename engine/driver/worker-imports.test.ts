import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { rootPath } from '../paths.js';

// The driver's worker thread starts at every run (and every capacity step's run), on the core that
// then sends the load: what it imports is start-up paid before the first request. zod alone was
// ~100 ms of CPU there (a 1-request `loadscope run` cost 0.62 CPU-s with it, 0.43-0.51 without), and
// the worker needs no schema, only names such as ERROR_KINDS (contract/error-kinds.ts). Nor does
// it load a transport's package until a phase chooses that transport (issue 42; worker-modules.test.ts
// checks a real run).
describe("the driver worker's imports", () => {
  it('do not include zod, nor any module that builds the contract schemas', async () => {
    const inputs = Object.keys((await workerGraph()).inputs);
    expect(inputs.some((f) => f.includes('engine/driver/run.ts'))).toBe(true); // the graph was walked
    expect(inputs.filter((f) => f.includes('node_modules/zod/'))).toEqual([]);
    expect(inputs.filter((f) => /contract\/(results|scenario)\.ts$/.test(f))).toEqual([]);
  });

  it('do not load grpc-js or proto-loader up front: only a gRPC phase pays their ~100 ms and ~15 MB (required on first use)', async () => {
    const inputs = Object.keys((await workerGraph()).inputs);
    expect(inputs.some((f) => f.includes('engine/driver/transport/grpc.ts'))).toBe(true); // the gRPC transport is in the graph
    expect(inputs.filter((f) => /node_modules\/(@grpc|protobufjs)\//.test(f))).toEqual([]);
  });

  it('name undici, ws and grpc-js in import statements for their types only: transport/packages.ts requires each when a transport first needs it', async () => {
    // a plain-http run (the fast path) or an h2 run (node:http2) never loads them: undici alone is ~70 ms of CPU (issue 42)
    const { inputs } = await workerGraph();
    expect(Object.keys(inputs).some((f) => f.endsWith('engine/driver/transport/packages.ts'))).toBe(true);
    const imported = Object.entries(inputs).flatMap(([file, { imports }]) => imports.filter((i) => /^(undici|ws|@grpc\/grpc-js)(\/|$)/.test(i.path)).map((i) => `${file} imports ${i.path}`));
    expect(imported).toEqual([]);
  });

  it("take hdr-histogram-js's histogram from its own files and encode on node:zlib: its index also loads the WebAssembly build, the log reader and writer and pako (~20 ms of CPU a run)", async () => {
    const inputs = Object.keys((await workerGraph()).inputs);
    expect(inputs.some((f) => f.endsWith('node_modules/hdr-histogram-js/dist/JsHistogramFactory.js'))).toBe(true); // the histogram is in the graph
    expect(inputs.filter((f) => /node_modules\/hdr-histogram-js\/dist\/(index|wasm\/index|HistogramLogWriter|HistogramLogReader|encoding|JsHistogram\.encoding)\.js$|node_modules\/pako\//.test(f))).toEqual([]);
  });
});

/** The worker's import graph as esbuild walks it (type-only imports dropped): packages in it, undici and ws as external imports. */
async function workerGraph(): Promise<Metafile> {
  const result = await build({ absWorkingDir: rootPath('.'), entryPoints: ['engine/driver/driver-worker.ts'], bundle: true, write: false, metafile: true, format: 'esm', platform: 'node', external: ['undici', 'ws'], logLevel: 'silent' });
  return result.metafile;
}
