// An event stream's framing (WHATWG HTML "event stream", text/event-stream), read for sizes only: the
// driver times events and counts their bytes, and keeps none of their text, so a stream of any size
// costs a few numbers. Lines end in CRLF, LF or CR (a CR at a chunk's end may be a CRLF's half);
// a blank line ends an event, which counts when one of its lines was a `data` field (an event
// without data is not dispatched, as EventSource does); a line starting with ':' is a comment (a
// keep-alive, not an event). An event's size is its lines with their ends, its closing blank line
// not counted. A line, or an event, over `maxBytes` stops the reader (`over`).
//
//   bytes ─▶ feed ─▶ line ends ─▶ blank? ── yes ─▶ event had data? ─▶ onEvent(bytes)
//                        │ no: field name "data"? (first 5 bytes: "data:" or "data" then EOL)

const CR = 0x0d;
const LF = 0x0a;
const COLON = 0x3a;
const DATA = [0x64, 0x61, 0x74, 0x61]; // "data"

/** where a line is in matching its field name against "data": 0..4 bytes matched; NO_MATCH, or DATA_FIELD once "data" ended by ':' */
const NO_MATCH = -1;
const DATA_FIELD = 5;

export class EventReader {
  /** bytes of the line being read (its end not counted) */
  private line = 0;
  /** bytes of the event being read, its lines' ends counted */
  private event = 0;
  private match = 0;
  private hasData = false;
  /** the last byte read was a CR: an LF right after is the same line end */
  private afterCR = false;
  /** the line that just ended was blank (an event's end): a CRLF's LF then belongs to no event */
  private blank = false;
  /** the bound a line or an event crossed, once crossed (the reader then reads nothing more) */
  over: 'line' | 'event' | null = null;

  constructor(
    private readonly maxBytes: number,
    /** an event dispatched, with its size in bytes (its lines and their ends) */
    private readonly onEvent: (bytes: number) => void,
  ) {}

  /** Reads a chunk; false once a bound is crossed (the stream is to be ended). */
  feed(chunk: Uint8Array): boolean {
    if (this.over !== null) return false;
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i]!;
      if (b === LF && this.afterCR) {
        // the LF of a CRLF: its line already ended at the CR
        this.afterCR = false;
        if (!this.blank) this.event++;
        continue;
      }
      this.afterCR = b === CR;
      if (b === CR || b === LF) {
        this.endLine();
        continue;
      }
      if (this.match >= 0 && this.match < 4) this.match = DATA[this.match] === b ? this.match + 1 : NO_MATCH;
      else if (this.match === 4) this.match = b === COLON ? DATA_FIELD : NO_MATCH;
      this.line++;
      this.event++;
      if (this.line > this.maxBytes) this.over = 'line';
      else if (this.event > this.maxBytes) this.over = 'event';
      if (this.over !== null) return false;
    }
    return true;
  }

  private endLine(): void {
    this.blank = this.line === 0;
    if (this.blank) {
      if (this.hasData) this.onEvent(this.event);
      this.event = 0;
      this.hasData = false;
    } else {
      // "data" alone on its line is a data field with an empty value
      if (this.match === DATA_FIELD || this.match === 4) this.hasData = true;
      this.event++;
    }
    this.line = 0;
    this.match = 0;
  }
}
