import { spawn, type ChildProcess } from 'node:child_process';
import type { Architecture, ArchitectureOptions, ServerReadyMessage } from '../../contract/servers.js';
import { launchSpec } from '../launch.js';
import type { ServerTiming } from '../server-timing.js';
import { parseServerTiming } from './parse-server-timing.js';

// Test helpers: start a bundled server from dist/ as a real child process (as the supervisor does),
// wait for its ready message, and fetch from it. Every started server is remembered so afterEach can
// end them all.

/** One architecture with its options, as a test table's row (each row's options typed by its architecture). */
export type ArchitectureCase = { [A in Architecture]: { name: string; architecture: A; options: Partial<ArchitectureOptions[A]> } }[Architecture];

export interface RunningServer {
  child: ChildProcess;
  pid: number;
  url: string;
  /** the self-signed certificate a server over TLS announced */
  cert: string | undefined;
  stderr: () => string;
}

const started = new Set<ChildProcess>();

function isReady(message: unknown): message is ServerReadyMessage {
  return typeof message === 'object' && message !== null && 'type' in message && message.type === 'ready';
}

export function startServer<A extends Architecture>(architecture: A, options: Partial<ArchitectureOptions[A]> = {}): Promise<RunningServer> {
  const spec = launchSpec(architecture, options);
  const child = spawn(process.execPath, [spec.file, ...spec.args], { stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  started.add(child);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout?.resume();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${architecture} not ready in 30 s: ${stderr}`)), 30_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${architecture} exited (${code}) before ready: ${stderr}`));
    });
    child.on('message', (message: unknown) => {
      if (!isReady(message)) return;
      clearTimeout(timer);
      const scheme = message.cert === undefined ? 'http' : 'https';
      resolve({ child, pid: message.pid, url: `${scheme}://127.0.0.1:${message.port}`, cert: message.cert, stderr: () => stderr });
    });
  });
}

/** SIGKILLs whatever a test left running (its children then notice their parent is gone). */
export async function stopAll(): Promise<void> {
  const exits = [...started].map((child) => {
    if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
    return exited.then(() => clearTimeout(timer));
  });
  started.clear();
  await Promise.all(exits);
}

export interface Answer {
  status: number;
  body: Buffer;
  text: string;
  timing: ServerTiming | undefined;
}

export async function get(url: string): Promise<Answer> {
  const response = await fetch(url);
  const body = Buffer.from(await response.arrayBuffer());
  return { status: response.status, body, text: body.toString(), timing: parseServerTiming(response.headers.get('server-timing')) };
}

/** A request with a method, headers and a JSON body (the bundled API's calls). */
export async function send(url: string, init: { method?: string; headers?: Record<string, string>; json?: unknown; body?: string }): Promise<Answer> {
  const body = init.json !== undefined ? JSON.stringify(init.json) : init.body;
  const response = await fetch(url, { method: init.method ?? (body === undefined ? 'GET' : 'POST'), headers: init.headers, body });
  const bytes = Buffer.from(await response.arrayBuffer());
  return { status: response.status, body: bytes, text: bytes.toString(), timing: parseServerTiming(response.headers.get('server-timing')) };
}

export function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}


/** Polls `check` until it holds or the deadline passes (no sleeps as synchronisation). */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined> | T | undefined, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
