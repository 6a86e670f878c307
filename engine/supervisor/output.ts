import type { Readable } from 'node:stream';

// A server's stdout/stderr are always read, whether or not anyone listens: a pipe nobody drains
// fills up and blocks the server mid-write. Lines go to the listeners; the last few are kept for
// error messages ("did not start: ... last output: ...").

export type OutputStream = 'stdout' | 'stderr';
export type LineListener = (line: string, stream: OutputStream) => void;

const TAIL_LINES = 20;
const MAX_LINE = 16 * 1024;

export class OutputTail {
  private readonly tail: string[] = [];
  private readonly listeners = new Set<LineListener>();

  attach(stream: Readable | null, name: OutputStream): void {
    if (!stream) return;
    let partial = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      const parts = (partial + chunk).split('\n');
      partial = (parts.pop() ?? '').slice(-MAX_LINE);
      for (const line of parts) this.emit(line.replace(/\r$/, ''), name);
    });
    stream.on('end', () => {
      if (partial) this.emit(partial, name);
      partial = '';
    });
    stream.on('error', () => undefined);
  }

  onLine(listener: LineListener): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** The last lines, oldest first, stderr lines marked. */
  lines(): string[] {
    return [...this.tail];
  }

  describe(): string {
    return this.tail.length > 0 ? `; last output:\n  ${this.tail.slice(-12).join('\n  ')}` : '; it printed nothing';
  }

  private emit(line: string, stream: OutputStream): void {
    this.tail.push(stream === 'stderr' ? `[stderr] ${line}` : line);
    if (this.tail.length > TAIL_LINES) this.tail.shift();
    for (const listener of this.listeners) listener(line, stream);
  }
}
