import { StringDecoder } from 'node:string_decoder';
import { terminalSafe, terminalSafeInline } from './format/terminal-safe.js';

// The one place the CLI's text reaches the terminal. main.ts guards process.stdout and process.stderr
// before any verb runs, so every verb, commander's help and errors, console.* and the lines bundled
// servers print all pass through terminalSafe: a scenario's strings (names, labels, phases, error
// messages quoting them) cannot retitle the terminal, write the clipboard, clear the screen or
// reorder a line. Loadscope's own control codes (a progress display's \r and erase-line) are the only
// text that bypasses it, through writeStatusLine/clearStatusLine, which escape the line they draw.

type Callback = (err?: Error | null) => void;
type RawWrite = (text: string, callback?: Callback) => boolean;

const rawWrites = new WeakMap<NodeJS.WriteStream, RawWrite>();

/** From now on, everything written to `stream` goes through terminalSafe. Idempotent. */
export function guardTerminalText(stream: NodeJS.WriteStream): void {
  if (rawWrites.has(stream)) return;
  const write = stream.write.bind(stream) as (chunk: string, encoding: BufferEncoding, callback?: Callback) => boolean;
  // Bytes may end inside a UTF-8 sequence (a bidi control is 3 bytes): the decoder keeps the rest for the next chunk.
  const decoder = new StringDecoder('utf8');
  rawWrites.set(stream, (text, callback) => write(text, 'utf8', callback));
  const guarded = (chunk: string | Uint8Array, encoding?: BufferEncoding | Callback, callback?: Callback): boolean => {
    if (typeof encoding === 'function') [callback, encoding] = [encoding, undefined];
    const text =
      typeof chunk !== 'string' ? decoder.write(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength))
      : encoding === undefined || encoding === 'utf8' || encoding === 'utf-8' ? chunk
      : decoder.write(Buffer.from(chunk, encoding));
    return write(terminalSafe(text), 'utf8', callback);
  };
  stream.write = guarded as NodeJS.WriteStream['write'];
}

const rawWrite = (stream: NodeJS.WriteStream): RawWrite => rawWrites.get(stream) ?? ((text, callback) => stream.write(text, callback));

/**
 * Redraws a progress display's one line on a terminal: carriage return, the line (escaped, then cut
 * to `width` columns), erase to the end of the line, and a line feed when the line is final.
 */
export function writeStatusLine(stream: NodeJS.WriteStream, line: string, width: number, final = false): void {
  rawWrite(stream)(`\r${terminalSafeInline(line).slice(0, width)}\x1b[K${final ? '\n' : ''}`);
}

/** Erases the status line drawn by writeStatusLine. */
export function clearStatusLine(stream: NodeJS.WriteStream): void {
  rawWrite(stream)('\r\x1b[K');
}
