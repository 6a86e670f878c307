// `loadscope list | head`: once the pipe's reader has gone, a write to it fails with EPIPE (Node
// ignores SIGPIPE, which ends `cat` quietly there), and that error came as an unhandled 'error'
// event: a stack trace and exit 1 from any verb. Now what is left to print is dropped and the verb
// ends as it would have: `list` with 0, a run after stopping its servers and storing its end, with
// its own exit code.

type Callback = (err?: Error | null) => void;

/** A write that goes nowhere: it still calls back, so nothing waits on it forever. */
function dropped(_chunk: unknown, encoding?: BufferEncoding | Callback, callback?: Callback): boolean {
  const done = typeof encoding === 'function' ? encoding : callback;
  if (done) process.nextTick(done);
  return true;
}

/** From the first EPIPE on, `stream` takes writes and drops them, and its errors end nothing. */
export function dropOutputOnceReaderGone(stream: NodeJS.WriteStream): void {
  let gone = false;
  stream.on('error', (err: NodeJS.ErrnoException) => {
    // after EPIPE the stream is destroyed: a write that was already on its way fails too, harmlessly
    if (!gone && err.code !== 'EPIPE') throw err;
    gone = true;
    stream.write = dropped as NodeJS.WriteStream['write'];
  });
}
