// A small decoder for HdrHistogram's compressed V2 encoding (the form the engine stores with
// hdr-histogram-js's encodeIntoCompressedBase64), so the compare view computes exact percentiles in
// the browser without pulling in that library's Node/WASM/eval paths (the page's CSP forbids eval).
//
//   base64 -> [int32 cookie 0x1c84930x][int32 length][zlib deflate of:]
//             [int32 cookie][int32 payload length][int32 normalizing offset][int32 significant digits]
//             [int64 lowest discernible][int64 highest trackable][float64 int->double ratio]
//             [payload: ZigZag LEB128 counts; a negative number n means -n empty buckets]

import { curvePoints } from '../../contract/report/percentiles';

const V2_ENCODING = 0x1c849303;
const V2_COMPRESSED = 0x1c849304;
const cookieBase = (cookie: number): number => cookie & ~0xf0;

/** Recorded values (µs, the highest value of each bucket) and their counts, ascending. */
export interface DecodedHistogram {
  totalCount: number;
  values: number[];
  counts: number[];
}

async function inflate(data: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
  const stream = new Blob([data]).stream().pipeThrough(new DecompressionStream('deflate'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

function readInt64(view: DataView, at: number): number {
  return view.getInt32(at) * 2 ** 32 + view.getUint32(at + 4);
}

export async function decodeHistogram(base64: string): Promise<DecodedHistogram> {
  const raw = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  const outer = new DataView(raw.buffer);
  if (cookieBase(outer.getInt32(0)) !== V2_COMPRESSED) throw new Error('not a compressed V2 HdrHistogram');
  const length = outer.getInt32(4);
  const bytes = await inflate(raw.slice(8, 8 + length));
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (cookieBase(view.getInt32(0)) !== V2_ENCODING) throw new Error('not a V2 HdrHistogram payload');
  const payloadLength = view.getInt32(4);
  const digits = view.getInt32(12);
  const lowest = readInt64(view, 16);

  // Bucket layout, as HdrHistogram derives it from lowest value and significant digits.
  const unitMagnitude = Math.floor(Math.log2(Math.max(lowest, 1)));
  const subBucketCountMagnitude = Math.ceil(Math.log2(2 * 10 ** digits));
  const halfMagnitude = Math.max(subBucketCountMagnitude, 1) - 1;
  const subBucketCount = 2 ** (halfMagnitude + 1);
  const half = subBucketCount / 2;
  const valueFromIndex = (index: number): number => {
    let bucket = Math.floor(index / half) - 1;
    let sub = (index % half) + half;
    if (bucket < 0) {
      sub -= half;
      bucket = 0;
    }
    return sub * 2 ** (bucket + unitMagnitude);
  };
  const highestEquivalent = (value: number): number => {
    const bucket = Math.max(Math.floor(Math.log2(value)) - halfMagnitude - unitMagnitude, 0);
    const sub = Math.floor(value / 2 ** (bucket + unitMagnitude));
    const size = 2 ** (unitMagnitude + (sub >= subBucketCount ? bucket + 1 : bucket));
    return value + size - 1;
  };

  const values: number[] = [];
  const counts: number[] = [];
  let totalCount = 0;
  let pos = 40;
  const end = pos + payloadLength;
  let index = 0;
  while (pos < end) {
    // LEB128, at most 9 bytes; arithmetic instead of bit ops keeps 53-bit precision.
    let value = 0;
    let scale = 1;
    for (let i = 0; i < 9; i++) {
      const b = bytes[pos++]!;
      value += (i === 8 ? b : b & 0x7f) * scale;
      if (i === 8 || (b & 0x80) === 0) break;
      scale *= 128;
    }
    const n = value % 2 === 0 ? value / 2 : -(value + 1) / 2;
    if (n < 0) {
      index += -n;
      continue;
    }
    if (n > 0) {
      values.push(highestEquivalent(valueFromIndex(index)));
      counts.push(n);
      totalCount += n;
    }
    index++;
  }
  return { totalCount, values, counts };
}

/** Adds histograms (e.g. a run's phases, or its server runs) by value. */
export function mergeHistograms(list: readonly DecodedHistogram[]): DecodedHistogram {
  const byValue = new Map<number, number>();
  for (const h of list) h.values.forEach((v, i) => byValue.set(v, (byValue.get(v) ?? 0) + h.counts[i]!));
  const values = [...byValue.keys()].sort((a, b) => a - b);
  const counts = values.map((v) => byValue.get(v)!);
  return { totalCount: counts.reduce((a, b) => a + b, 0), values, counts };
}

/** The value (µs) at a percentile 0..100, as HdrHistogram's getValueAtPercentile answers it. */
export function valueAtPercentile(h: DecodedHistogram, percentile: number): number {
  if (h.totalCount === 0) return 0;
  const target = Math.max(Math.ceil((Math.min(percentile, 100) / 100) * h.totalCount - 1e-9), 1);
  let seen = 0;
  for (let i = 0; i < h.values.length; i++) {
    seen += h.counts[i]!;
    if (seen >= target) return h.values[i]!;
  }
  return h.values[h.values.length - 1] ?? 0;
}

/** Points for a percentile curve in ms, as the reports compute them (contract/report/percentiles.ts). */
export function percentileCurve(h: DecodedHistogram, maxX = 10_000): [number, number][] {
  return curvePoints(h.totalCount, (q) => valueAtPercentile(h, q), h.values[h.values.length - 1] ?? 0, maxX);
}
