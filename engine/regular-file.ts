import { closeSync, constants, fstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';

// The one way a file a scenario or a command names is read (data files, TLS files, a HAR): a regular
// file of at most a stated size, or one line saying why not. Never a byte of the file in that line
// (the file may be /etc/shadow or a private key), and never a read without end: /dev/zero has no
// size to refuse and a FIFO's open waits for a writer, so anything but a regular file is refused
// before a byte is read.

export type FileRead = { text: string } | { refused: string };

const MIB = 1024 * 1024;

/** A byte count as a limit is stated: whole MiB as MiB, else bytes. */
function bytesText(n: number): string {
  return n >= MIB && n % MIB === 0 ? `${n / MIB} MiB` : `${n} bytes`;
}

function kindOf(stat: Stats): string {
  if (stat.isDirectory()) return 'a directory';
  if (stat.isFIFO()) return 'a named pipe (FIFO)';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  if (stat.isSocket()) return 'a socket';
  return 'not a plain file';
}

function cannot(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return 'does not exist';
  if (code === 'EACCES' || code === 'EPERM') return `cannot be read: permission denied (${code})`;
  return `cannot be read (${code ?? 'error'})`;
}

/** Why `stat` is not a regular file of at most `maxBytes` (`what`: "a data file"), or null when it is. */
function refusal(stat: Stats, maxBytes: number, what: string): string | null {
  if (!stat.isFile()) return `is ${kindOf(stat)}, not a regular file`;
  if (stat.size > maxBytes) return `is ${stat.size} bytes; ${what} may have at most ${bytesText(maxBytes)}`;
  return null;
}

/**
 * Checks without opening: `path` is a regular file of at most `maxBytes`. Null when it is, else the
 * reason, a phrase to follow the path ("is a named pipe (FIFO), not a regular file").
 */
export function regularFileRefusal(path: string, maxBytes: number, what: string): string | null {
  try {
    return refusal(statSync(path), maxBytes, what);
  } catch (err) {
    return cannot(err);
  }
}

/**
 * The UTF-8 text of `path` when it is a regular file of at most `maxBytes`, else `refused`: a phrase
 * to follow the path, naming no byte of the file. `what` names the file in the size refusal.
 */
export function readRegularFile(path: string, maxBytes: number, what: string): FileRead {
  // stat before open: opening a device can itself act (a tty, a tape), and a FIFO's open blocks
  const before = regularFileRefusal(path, maxBytes, what);
  if (before !== null) return { refused: before };
  let fd: number;
  try {
    // O_NONBLOCK: if the path became a FIFO since the stat, the open still returns at once
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0));
  } catch (err) {
    return { refused: cannot(err) };
  }
  try {
    // the open file is what is read: checked again, so a swap after the stat cannot get past
    const stat = fstatSync(fd);
    const refused = refusal(stat, maxBytes, what);
    if (refused !== null) return { refused };
    // at most one byte past the limit: a file that grows while it is read is refused, not followed
    let buf = Buffer.allocUnsafe(Math.min(stat.size, maxBytes) + 1);
    let n = 0;
    for (;;) {
      if (n === buf.length) {
        if (buf.length > maxBytes) return { refused: `grew past ${bytesText(maxBytes)} while it was read; ${what} may have at most ${bytesText(maxBytes)}` };
        const bigger = Buffer.allocUnsafe(Math.min(buf.length * 2, maxBytes + 1));
        buf.copy(bigger, 0, 0, n);
        buf = bigger;
      }
      const read = readSync(fd, buf, n, buf.length - n, null);
      if (read === 0) break;
      n += read;
    }
    return { text: buf.toString('utf8', 0, n) };
  } catch (err) {
    return { refused: cannot(err) };
  } finally {
    closeSync(fd);
  }
}
