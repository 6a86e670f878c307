import { InvalidArgumentError, Option } from 'commander';
import { LoadscopeError } from '../contract/errors.js';

export const dbOption = () => new Option('--db <path>', 'the database file (default: LOADSCOPE_DB or your data folder)');

/** A run id argument: a positive integer, or a one-line reason. */
export function parseRunId(value: string): number {
  // Digits only: Number() would also read 0x1, 1e0, ' 1' and 0b1 as run 1.
  const id = /^[1-9]\d{0,14}$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(id)) {
    throw new LoadscopeError('LS_ERR_BAD_REQUEST', `'${value}' is not a run id (a positive whole number; \`loadscope list\` shows them)`);
  }
  return id;
}

/** Opens the engine for one command and always closes it (stopping servers, closing the store). */
export async function withEngine<T>(dbPath: string | undefined, use: (engine: import('../engine/engine.js').Engine) => Promise<T>): Promise<T> {
  const { createEngine } = await import('../engine/engine.js');
  const engine = createEngine({ dbPath });
  try {
    return await use(engine);
  } finally {
    await engine.close();
  }
}

/** --set path=value, repeatable, into one record. */
export function collectSet(value: string, previous: Record<string, string>): Record<string, string> {
  const eq = value.indexOf('=');
  if (eq <= 0) throw new LoadscopeError('LS_ERR_BAD_REQUEST', `--set takes path=value, got '${value}'`);
  return { ...previous, [value.slice(0, eq)]: value.slice(eq + 1) };
}

/** --repeat: a whole number of runs, 1 to 50 (every load loop is bounded). */
export function parseRepeat(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > 50) throw new InvalidArgumentError(`--repeat takes a whole number of runs from 1 to 50, got '${value}'`);
  return n;
}
