import { BlockList } from 'node:net';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cidrsOutside, OUTSIDE_LOOPBACK } from './k6-block-list.js';

// The block list is checked with Node's own BlockList (an independent CIDR matcher), on addresses
// only: nothing here connects anywhere. One BlockList per family: Node also matches an IPv4 address
// against IPv6 rules (as ::ffff:a.b.c.d), where k6 (Go's net.IPNet) matches it against IPv4 ones only.

function blockListOf(cidrs: readonly string[], family: 'ipv4' | 'ipv6' = 'ipv4'): BlockList {
  const list = new BlockList();
  for (const c of cidrs.filter((x) => x.includes(':') === (family === 'ipv6'))) {
    const [address, prefix] = c.split('/');
    list.addSubnet(address!, Number(prefix), family);
  }
  return list;
}

const blocked4 = blockListOf(OUTSIDE_LOOPBACK, 'ipv4');
const blocked6 = blockListOf(OUTSIDE_LOOPBACK, 'ipv6');
const v4 = (a: string) => blocked4.check(a, 'ipv4');
const v6 = (a: string) => blocked6.check(a, 'ipv6');
const justLoopback6 = blockListOf(['::1/128'], 'ipv6');

describe("k6's address block list", () => {
  it('blocks every sampled address outside 127.0.0.0/8 and ::1, and none inside', () => {
    for (const a of ['0.0.0.0', '1.1.1.1', '10.0.0.1', '126.255.255.255', '128.0.0.0', '169.254.169.254', '192.168.1.1', '224.0.0.1', '255.255.255.255']) expect(v4(a), a).toBe(true);
    for (const a of ['127.0.0.0', '127.0.0.1', '127.0.0.2', '127.255.255.255']) expect(v4(a), a).toBe(false);
    for (const a of ['::', '::2', '::ffff:10.0.0.1', '2001:db8::1', 'fe80::1', 'fd00::1', 'ff02::1', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff']) expect(v6(a), a).toBe(true);
    expect(v6('::1')).toBe(false);
  });

  it('agrees with "is it loopback" on random addresses of both families', () => {
    fc.assert(
      fc.property(fc.ipV4(), (a) => v4(a) === !a.startsWith('127.')),
      { numRuns: 2000, seed: 7 },
    );
    fc.assert(
      fc.property(fc.ipV6(), (a) => v6(a) === !justLoopback6.check(a, 'ipv6')),
      { numRuns: 2000, seed: 8 },
    );
  });

  it('is the fewest CIDRs (8 for IPv4 around a /8, 128 for IPv6 around one address), in a form k6 parses', () => {
    expect(OUTSIDE_LOOPBACK.filter((c) => !c.includes(':'))).toEqual(['0.0.0.0/2', '64.0.0.0/3', '96.0.0.0/4', '112.0.0.0/5', '120.0.0.0/6', '124.0.0.0/7', '126.0.0.0/8', '128.0.0.0/1']);
    const six = OUTSIDE_LOOPBACK.filter((c) => c.includes(':'));
    expect(six).toHaveLength(128);
    expect(six.slice(0, 3)).toEqual(['::/128', '::2/127', '::4/126']);
    expect(six.at(-1)).toBe('8000::/1');
  });

  it('leaves out any set of allowed ranges, whatever they are', () => {
    const cidr = fc.tuple(fc.ipV4(), fc.integer({ min: 0, max: 32 })).map(([a, n]) => `${a}/${n}`);
    fc.assert(
      fc.property(fc.array(cidr, { minLength: 1, maxLength: 4 }), fc.array(fc.ipV4(), { minLength: 20, maxLength: 20 }), (allowed, probes) => {
        const inside = blockListOf(allowed);
        const outside = blockListOf(cidrsOutside(allowed));
        for (const a of probes) expect(outside.check(a, 'ipv4')).toBe(!inside.check(a, 'ipv4'));
        // every allowed range's own address is allowed
        for (const c of allowed) expect(outside.check(c.split('/')[0]!, 'ipv4')).toBe(false);
      }),
      { numRuns: 300, seed: 9 },
    );
  });
});
