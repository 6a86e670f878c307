import { describe, expect, it } from 'vitest';
import { EventReader } from './sse-events.js';

// An event stream's framing as the SSE transport reads it (sse-events.ts): events end at a blank
// line whatever the line ends (CRLF, LF, CR, split across chunks), count only with a data field (a
// comment, a retry-only block or an event without data is not one, as EventSource has it), and a
// line or an event over the bound stops the reader: what is kept is a few numbers, whatever is sent.

function read(chunks: (string | Buffer)[], maxBytes = 1024): { events: number[]; over: string | null; fed: boolean[] } {
  const events: number[] = [];
  const reader = new EventReader(maxBytes, (bytes) => events.push(bytes));
  const fed = chunks.map((c) => reader.feed(typeof c === 'string' ? Buffer.from(c) : c));
  return { events, over: reader.over, fed };
}

describe('event stream framing', () => {
  it('LF, CRLF and CR line ends, a CRLF split between chunks: each event once, with its size', () => {
    expect(read(['data: a\n\n', 'data: b\r\n\r\n', 'data: c\r\r']).events).toEqual([8, 9, 8]);
    expect(read(['data: a\r', '\n\r', '\ndata: b\n\n']).events).toEqual([9, 8]);
  });

  it('comments, a retry-only block, an event name without data, a field named dataX: no event; "data" alone is one', () => {
    expect(read([': keep-alive\n\n', 'retry: 2000\n\n', 'event: tick\n\n', 'datax: 1\n\n', 'dat\n\n']).events).toEqual([]);
    expect(read(['data\n\n', 'event: t\ndata: {"n":1}\nid: 4\n\n']).events).toHaveLength(2);
  });

  it('a line over the bound: the reader stops and says so; an event of short lines over it: stopped as an event', () => {
    const line = read(['data: ', Buffer.alloc(2000, 'x')], 1024);
    expect(line.over).toBe('line');
    expect(line.fed).toEqual([true, false]);
    expect(read(['data: a\n'.repeat(200)], 1024).over).toBe('event');
    expect(read(['data: a\n'.repeat(100), '\n'], 1024)).toMatchObject({ over: null, events: [800] });
  });

  it('after a bound is crossed nothing more is read: a following event is not counted', () => {
    const r = read([Buffer.alloc(2000, 'x'), 'data: late\n\n'], 1024);
    expect(r).toMatchObject({ over: 'line', events: [], fed: [false, false] });
  });
});
