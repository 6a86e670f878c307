import { describe, expect, it } from 'vitest';
import { connectionsText, multiplexingText, serverStreams, targetHandshakes } from './connection-figures.js';
import type { ConnectionFigures, LatencyStats } from './results.js';

// A keep-alive https run's handshake mean of tens of ms is a start-up storm (issue 36): the line
// under a phase says how many handshakes were at start-up and that those requests waited for their
// connection, counted in client queue; an h2 server run says its connections and streams each,
// and that `streams` sets them (default 1, one connection per user).

const stats = (mean: number, count: number): LatencyStats => ({ count, mean, min: mean, max: mean, stddev: 0, p50: mean, p66: mean, p75: mean, p80: mean, p90: mean, p95: mean, p98: mean, p99: mean, p999: mean });
const figures = (opened: number, atStartup?: number): ConnectionFigures => ({ opened, connect: stats(0.2, opened), handshake: stats(51.6, opened), ...(atStartup !== undefined && { atStartup }) });

describe('the connection line and the h2 line', () => {
  it('handshakes at start-up: the line says so, with the count, and that requests waited for them', () => {
    expect(connectionsText(figures(29, 29))).toBe(
      'TLS: 29 new connections · handshake mean 51.6, p50 51.6, p99 51.6, max 51.6 ms · connect mean 0.2, p99 0.2 ms · all 29 at start-up (first 0.5 s): requests waited for their connection, counted in client queue',
    );
    expect(connectionsText(figures(1, 1))).toMatch(/ · 1 of 1 at start-up \(first 0\.5 s\): /);
    expect(connectionsText(figures(40, 12))).toMatch(/ · 12 of 40 at start-up \(first 0\.5 s\): requests waited for their connection, counted in client queue$/);
  });

  it('none at start-up, or a run stored before they were counted: no claim', () => {
    expect(connectionsText(figures(40, 0))).toMatch(/connect mean 0\.2, p99 0\.2 ms$/);
    expect(connectionsText(figures(40))).toMatch(/connect mean 0\.2, p99 0\.2 ms$/);
  });

  it('a server run over phases: handshakes summed, the mean weighted, start-up unknown if one phase did not count it', () => {
    expect(targetHandshakes([{ connections: figures(10, 10) }, { connections: { ...figures(30, 0), handshake: stats(2, 30) } }, {}])).toEqual({ opened: 40, meanMs: (10 * 51.6 + 30 * 2) / 40, atStartup: 10 });
    expect(targetHandshakes([{ connections: figures(10, 10) }, { connections: figures(5) }])?.atStartup).toBeNull();
    expect(targetHandshakes([{}])).toBeNull();
  });

  it('an h2 server run: its connections and streams each, and what sets them; HTTP/1.1 or unknown: nothing', () => {
    expect(multiplexingText('h2', 1, [{ connections: figures(29, 29) }])).toBe('h2: 29 connections, 1 stream each; `streams` sets the requests in flight per connection over h2 (default 1: one connection per user, as over HTTP/1.1)');
    expect(multiplexingText('h2', 10, [{ connections: figures(3, 3) }])).toMatch(/^h2: 3 connections, up to 10 streams each; /);
    // h2c has no TLS, so its connections are not timed nor counted
    expect(multiplexingText('h2c', 1, [{}])).toMatch(/^h2c: 1 stream each; `streams` sets/);
    expect(multiplexingText('http/1.1', 1, [])).toBeNull();
    expect(multiplexingText(null, 1, [])).toBeNull();
  });

  it("a server's streams from a stored scenario: its value, 1 where unset or unreadable", () => {
    expect(serverStreams({ servers: [{}, { streams: 8 }] }, 1)).toBe(8);
    expect(serverStreams({ servers: [{}] }, 0)).toBe(1);
    expect(serverStreams(null, 0)).toBe(1);
    expect(serverStreams({ servers: [{ streams: 'x' }] }, 0)).toBe(1);
  });
});
