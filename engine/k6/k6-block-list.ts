// k6 resolves and connects by itself, so Loadscope's guarded lookup (engine/net/target-guard.ts) does
// not see its connections. k6's own `blacklistIPs` option refuses a connection to a listed range
// before dialing; listing everything OUTSIDE this machine's addresses keeps a k6 run on loopback
// whatever LOADSCOPE_TARGET or a response says. k6 has no allow list, hence the complement.

/** The addresses load may go to without consent: 127.0.0.0/8 and ::1. */
export const LOOPBACK_CIDRS: readonly string[] = ['127.0.0.0/8', '::1/128'];

interface Family {
  bits: number;
  parse(address: string): bigint;
  format(value: bigint): string;
}

const IPV4: Family = {
  bits: 32,
  parse: (a) => a.split('.').reduce((n, octet) => (n << 8n) | BigInt(Number(octet)), 0n),
  format: (v) => [24n, 16n, 8n, 0n].map((s) => String((v >> s) & 255n)).join('.'),
};

const IPV6: Family = {
  bits: 128,
  parse(a) {
    const [head, tail] = a.includes('::') ? a.split('::') : [a, undefined];
    const left = head ? head.split(':') : [];
    const right = tail ? tail.split(':') : [];
    const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
    return groups.reduce((n, g) => (n << 16n) | BigInt(parseInt(g, 16)), 0n);
  },
  format(v) {
    const groups = Array.from({ length: 8 }, (_, i) => Number((v >> BigInt(112 - 16 * i)) & 0xffffn));
    // RFC 5952: the longest run (2 or more) of zero groups becomes "::".
    let best = { at: -1, len: 1 };
    for (let i = 0; i < 8; ) {
      let j = i;
      while (j < 8 && groups[j] === 0) j++;
      if (j - i > best.len) best = { at: i, len: j - i };
      i = j === i ? i + 1 : j;
    }
    const hex = groups.map((g) => g.toString(16));
    if (best.at < 0) return hex.join(':');
    return `${hex.slice(0, best.at).join(':')}::${hex.slice(best.at + best.len).join(':')}`;
  },
};

interface Prefix {
  value: bigint;
  length: number;
}

/** The prefixes covering exactly what `allowed` does not, within one family (fewest prefixes). */
function complement(f: Family, allowed: readonly Prefix[]): Prefix[] {
  const top = (p: Prefix, len: number) => p.value >> BigInt(f.bits - len);
  const out: Prefix[] = [];
  const walk = (node: Prefix) => {
    // Inside an allowed prefix: nothing to block here.
    if (allowed.some((a) => a.length <= node.length && top(a, a.length) === top(node, a.length))) return;
    // No allowed prefix inside this one: block it whole.
    if (!allowed.some((a) => a.length > node.length && top(a, node.length) === top(node, node.length))) {
      out.push(node);
      return;
    }
    const bit = 1n << BigInt(f.bits - node.length - 1);
    walk({ value: node.value, length: node.length + 1 });
    walk({ value: node.value | bit, length: node.length + 1 });
  };
  walk({ value: 0n, length: 0 });
  return out;
}

/** Every address outside the given CIDRs, as IPv4 and IPv6 CIDRs (k6's `blacklistIPs` form). */
export function cidrsOutside(allowed: readonly string[]): string[] {
  const byFamily = (f: Family, v6: boolean) =>
    allowed
      .filter((c) => c.includes(':') === v6)
      .map((c) => {
        const [address, length] = c.split('/');
        const len = length === undefined ? f.bits : Number(length);
        // The network part only, as a CIDR means it.
        const mask = len === 0 ? 0n : ((1n << BigInt(len)) - 1n) << BigInt(f.bits - len);
        return { value: f.parse(address!) & mask, length: len };
      });
  return [
    ...complement(IPV4, byFamily(IPV4, false)).map((p) => `${IPV4.format(p.value)}/${p.length}`),
    ...complement(IPV6, byFamily(IPV6, true)).map((p) => `${IPV6.format(p.value)}/${p.length}`),
  ];
}

/** k6's `blacklistIPs` for a run without --allow-remote: every address but 127.0.0.0/8 and ::1. */
export const OUTSIDE_LOOPBACK: readonly string[] = cidrsOutside(LOOPBACK_CIDRS);
