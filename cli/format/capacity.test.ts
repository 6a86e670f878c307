import { describe, expect, it } from 'vitest';
import { step, storedSearch } from '../../contract/capacity/test-support/stored-steps.js';
import { syntheticCapacity } from '../../contract/capacity/test-support/synthetic-capacity.js';
import { capacityJson, formatCapacity } from './capacity.js';

describe('the capacity table', () => {
  it('a users search is labelled in users: the heading, the table and its steps', () => {
    const users = [syntheticCapacity('single', [100, 200, 400, 300], 400)].map((s) => ({ ...s, capacity: { ...s.capacity, mode: 'users' as const } }));
    const text = formatCapacity(users);
    expect(text).toMatch(/^Capacity \(the most closed-loop users that held every limit/);
    expect(text).toContain('sustainable (users)');
    expect(text).toContain('offered (users)');
    expect(text).toContain('400 users');
    expect(text).not.toMatch(/sustainable \(req\/s\)|offered \(req\/s\)/);
    expect(formatCapacity([syntheticCapacity('single', [100, 200, 400, 300], 400)])).toContain('sustainable (req/s)');
  });
});

describe('the capacity table says what broke first (issue 24)', () => {
  const named = (name: string, capacity: ReturnType<typeof storedSearch>, targetId: number) => ({ targetId, name, capacity });
  // single: the server failed its latency at 200 though the generator lagged; cluster and offload:
  // only the generator lagged; thread-per-request: its first step already broke
  const servers = [
    named('single', storedSearch(step(50, 50, 40), step(100, 100, 60), step(200, 198, 2200, 30), step(150, 148, 90)), 1),
    named('cluster-2', storedSearch(step(50, 50, 40), step(100, 100, 50), step(200, 199, 60, 12)), 2),
    named('offload-2', storedSearch(step(100, 100, 40), step(200, 198, 50, 9)), 3),
    named('thread-per-request', storedSearch(step(100, 23.7, 2200, 30), step(50, 22, 1800), step(25, 21, 900), step(12.5, 12, 600)), 4),
  ];
  const text = formatCapacity(servers);
  const row = (name: string) => text.split('\n').find((l) => l.startsWith(`${name} `)) ?? '';

  it("the server's limit where it broke, with its knee, though the generator also lagged", () => {
    expect(row('single')).toMatch(/^single\s+150\s+150 – 200\s+latency\s+200 req\/s\s/);
    expect(text).toMatch(/single: total p99 2200 ms > 250 ms \(2170 ms without the generator's worst lag\) \(the generator also lagged: schedule lag p90 30 ms > 5 ms\) at 200 req\/s/);
  });

  it('a search only the generator stopped: "≥ n", "at least n", no knee, and the lower-bound note once', () => {
    expect(row('cluster-2')).toMatch(/^cluster-2\s+≥ 100\s+at least 100\s+generator\s+-\s/);
    expect(row('offload-2')).toMatch(/^offload-2\s+≥ 100\s+at least 100\s+generator\s+-\s/);
    expect(text.match(/the machine could not drive this load: the figures are lower bounds/g)).toHaveLength(1);
    expect(text).toMatch(/^ {2}Note: the machine could not drive this load: the figures are lower bounds .*: cluster-2, offload-2\.$/m);
  });

  it('no held step reads "below n", never "- – n" nor "at least 0"', () => {
    expect(row('thread-per-request')).toMatch(/^thread-per-request\s+-\s+below 12\.5\s+latency\s+12\.5 req\/s/);
    expect(text).toMatch(/thread-per-request: .*below 12\.5 req\/s: every load offered broke/);
    expect(text).not.toMatch(/- – |at least 0/);
  });

  it("a poor USL fit's figures in brackets, with the reason; --json says whether the fit is drawn", () => {
    const poor = named('jumpy', storedSearch(step(50, 100, 300), step(100, 20, 1800), step(200, 180, 183), step(400, 30, 1300)), 5);
    const out = formatCapacity([poor]);
    expect(out.split('\n').find((l) => l.startsWith('jumpy '))).toMatch(/\[[\d.e-]+ \([^)]*\)\]\s+\[[\d.e-]+ \([^)]*\)\]\s+\[[\d.e∞-]+ \([^)]*\)\]\s+\[-?[\d.]+\]$/);
    expect(out).toMatch(/jumpy: .*; USL: poor fit \(R² -?[\d.]+ below 0.8\): no curve drawn/);
    expect(capacityJson([poor])[0]).toMatchObject({ uslTrusted: false, lowerBound: false });
    expect(capacityJson(servers).map((s) => s.lowerBound)).toEqual([false, true, true, false]);
  });
});

describe('why two runs of one search can differ (issue 24: the workbench said 150, the CLI 100)', () => {
  it('says once when steps judged their p99 on their slowest request or two, and which servers', () => {
    // 100 requests a step (a quick 0.6 s step at ~150 req/s): the p99 is the slowest one or two
    const short = { targetId: 1, name: 'single', capacity: storedSearch(step(100, 100, 60), step(200, 150, 900), step(150, 148, 90)) };
    const long = { targetId: 2, name: 'cluster-2', capacity: storedSearch({ ...step(100, 100, 60), count: 3000, ok: 3000 }, { ...step(200, 199, 900), count: 6000, ok: 6000 }) };
    const text = formatCapacity([short, long]);
    expect(text.match(/^ {2}Note: steps of fewer than 200 requests judge total p99 by their slowest one or two, so near the limit a step can hold in one run and break in the next, and two runs can differ by a step \(single 3 of 3\); longer steps judge on more\.$/gm)).toHaveLength(1);
    expect(formatCapacity([long])).not.toMatch(/fewer than/);
  });
});
