import { describe, expect, it } from 'vitest';
import type { EndpointResult } from '../../contract/results.js';
import { harToScenario } from '../import-requests/har.js';
import { diagnose } from './index.js';
import { otherHosts } from './other-hosts.js';
import { createPhase, createStoredRun, createWindow, flatStats } from './test-support/stored-run-factory.js';
import { MANY_ENDPOINTS, tooManyUrls } from './too-many-urls.js';

// The two rules about a scenario as imported (a HAR): too-many-urls (a phase split into very many
// endpoints of a few requests each, ids not grouped) and other-hosts (requests captured for other
// hosts sent to the one server). Each fires on its pattern and stays silent just short of it; the
// note other-hosts reads is the one the real import writes (harToScenario with --all-hosts).

function endpoint(name: string, index: number, count = 10, failed = 0): EndpointResult {
  return { name, index, count, ok: count - failed, errors: failed > 0 ? { http: failed } : {}, throughput: 5, total: flatStats(20, count), wait: null, processing: null, serverWait: null, lag: flatStats(0.1, count), ttfb: flatStats(19, count), transfer: flatStats(0.01, count) };
}
const withEndpoints = (endpoints: EndpointResult[], scenario?: unknown) =>
  createStoredRun([createPhase({ count: endpoints.reduce((n, e) => n + e.count, 0), endpoints })], { windows: [createWindow()], scenario });
const ids = (n: number, name: (i: number) => string) => Array.from({ length: n }, (_, i) => endpoint(name(i), i));

describe('too-many-urls', () => {
  it('60 endpoints GET /items/<id> of 10 requests each: fires, naming the one shape the ids hide', () => {
    const [f] = tooManyUrls.check(withEndpoints(ids(60, (i) => `GET /items/${1000 + i}?ref=${i}`)));
    expect(f?.text).toContain('60 endpoints');
    expect(f?.text).toContain('1 URL shape(s) with ids not grouped');
    expect(f?.text).toContain('GET /items/{id}?ref={id}');
    expect(f?.confidence).toBe('high');
    expect(f?.evidence.figures.find((x) => x.name === 'URL shapes')?.value).toBe(1);
  });
  it('UUIDs and long hex tokens are ids too: 30 endpoints collapse to two shapes', () => {
    const uuid = (i: number) => `123e4567-e89b-12d3-a456-${String(426614174000 + i).padStart(12, '0')}`;
    const found = tooManyUrls.check(withEndpoints([...ids(15, (i) => `GET /orders/${uuid(i)}`), ...ids(15, (i) => `POST /blobs/${(0xabcdef000000 + i).toString(16)}/meta`)]));
    expect(found[0]?.evidence.figures.find((x) => x.name === 'URL shapes')?.value).toBe(2);
  });
  it('distinct names without ids: fires with medium confidence (the ids may be slugs)', () => {
    const [f] = tooManyUrls.check(withEndpoints(ids(MANY_ENDPOINTS, (i) => `GET /page-${String.fromCharCode(97 + i)}`)));
    expect(f?.confidence).toBe('medium');
    expect(f?.text).not.toContain('ids not grouped');
  });
  it(`one endpoint short of ${MANY_ENDPOINTS}: silent`, () => {
    expect(tooManyUrls.check(withEndpoints(ids(MANY_ENDPOINTS - 1, (i) => `GET /items/${i}`)))).toEqual([]);
  });
  it('as many endpoints, each with enough requests for its own p99: silent (the figures are sound, only many)', () => {
    expect(tooManyUrls.check(withEndpoints(Array.from({ length: 30 }, (_, i) => endpoint(`GET /items/${i}`, i, 1000))))).toEqual([]);
  });
  it('30 endpoints whose stored counts are NaN: silent, no finding on a figure that is not a number', () => {
    expect(tooManyUrls.check(withEndpoints(Array.from({ length: 30 }, (_, i) => endpoint(`GET /items/${i}`, i, Number.NaN))))).toEqual([]);
  });
  it('a phase stored before endpoints were measured: silent, no crash', () => {
    expect(tooManyUrls.check(createStoredRun([createPhase()]))).toEqual([]);
  });
});

describe('other-hosts', () => {
  const HAR = JSON.stringify({ log: { entries: [
    { request: { method: 'GET', url: 'http://127.0.0.1:8080/api/cart', headers: [] } },
    { request: { method: 'GET', url: 'http://127.0.0.1:8080/api/user', headers: [] } },
    { request: { method: 'POST', url: 'https://analytics.example.com/collect', headers: [] } },
    { request: { method: 'GET', url: 'https://auth.example.com/session', headers: [] } },
  ] } });
  const imported = (allHosts: boolean) => JSON.parse(harToScenario(JSON.parse(HAR).log.entries, 'shop.har', { allHosts }).text) as unknown;

  it('a scenario the real import made with --all-hosts, two endpoints mostly failing: fires, naming the hosts and where they went', () => {
    const [f] = otherHosts.check(withEndpoints([endpoint('GET /api/cart', 0), endpoint('GET /api/user', 1), endpoint('POST /collect', 2, 10, 10), endpoint('GET /session', 3, 10, 6)], imported(true)));
    expect(f?.text).toContain('2 other host(s) (analytics.example.com, auth.example.com) were sent to 127.0.0.1:8080');
    expect(f?.text).toContain('2 endpoint(s) mostly failed');
    expect(f?.evidence.server).toBe('single');
  });
  it('the same HAR imported without --all-hosts (other hosts left out): silent', () => {
    expect(otherHosts.check(withEndpoints([endpoint('GET /api/cart', 0)], imported(false)))).toEqual([]);
  });
  it('no scenario stored, or one whose description is not text: silent, no crash', () => {
    expect(otherHosts.check(withEndpoints([endpoint('GET /', 0)], null))).toEqual([]);
    expect(otherHosts.check(withEndpoints([endpoint('GET /', 0)], { description: 42 }))).toEqual([]);
  });
  it('both rules stay silent on the hand-built healthy run', () => {
    const d = diagnose(createStoredRun([createPhase()], { windows: [createWindow()] }));
    expect(d.findings).toEqual([]);
  });
});
