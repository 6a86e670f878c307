import { chmodSync, createWriteStream, existsSync, writeFileSync, type WriteStream } from 'node:fs';
import { LoadscopeError } from '../contract/errors.js';

// Files the CLI writes: never over an existing file unless the user said --force. 'wx' makes the
// check and the creation one step, so no file appearing in between is overwritten either.

const exists = (file: string) => new LoadscopeError('LS_ERR_BAD_REQUEST', `${file} already exists; pass --force to replace it`);

/** Refuses up front when any of the files exists (unless forced), so a command writes all of its files or none. */
export function refuseExisting(files: readonly (string | undefined)[], force: boolean): void {
  if (force) return;
  for (const file of files) if (file !== undefined && existsSync(file)) throw exists(file);
}

/** `mode`: for a new file (a file of credentials: 0o600); a replaced one is made so too. */
export function writeOutput(file: string, bytes: Buffer | string, force: boolean, mode?: number): void {
  try {
    writeFileSync(file, bytes, { flag: force ? 'w' : 'wx', ...(mode === undefined ? {} : { mode }) });
    if (mode !== undefined) chmodSync(file, mode);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw exists(file);
    throw err;
  }
}

/** A stream to the file, opened (or refused) before anything is written. */
export async function openOutput(file: string, force: boolean): Promise<WriteStream> {
  const out = createWriteStream(file, { flags: force ? 'w' : 'wx' });
  await new Promise<void>((resolve, reject) => {
    out.once('open', () => resolve());
    out.once('error', (err: NodeJS.ErrnoException) => reject(err.code === 'EEXIST' ? exists(file) : err));
  });
  return out;
}
