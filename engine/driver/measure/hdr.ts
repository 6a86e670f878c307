import { deflateSync } from 'node:zlib';
import type { Histogram } from 'hdr-histogram-js';
import { JsHistogram } from 'hdr-histogram-js/dist/JsHistogram.js';
import { constructorFromBucketSize } from 'hdr-histogram-js/dist/JsHistogramFactory.js';

// The two parts of hdr-histogram-js the driver's worker uses, without the package's index: that also
// loads its WebAssembly build, the log reader and writer and, for its encoder, pako (a browser
// fallback: in Node it deflates with zlib), ~30 ms of CPU at every run's start against ~7 here
// (issue 42). The histogram is the index's `build({ useWebAssembly: false })`; the encoding is its
// `encodeIntoCompressedBase64` written again on node:zlib, byte for byte (hdr.test.ts):
//
//   compressed: | cookie 0x1c849314 | deflated length | deflate(V2)                      |
//   V2:         | cookie 0x1c849313 | payload length | 1 | digits | lowest (int64) | highest (int64) | 1 (int64) | payload |
//   payload:    each count from index 0 to the max value's, ZigZag LEB128; a run of 2+ zeros as -run
// (integers big-endian, as hdr-histogram-js's ByteBuffer writes them)

const V2_COOKIE = 0x1c849303 | 0x10;
const V2_COMPRESSED_COOKIE = 0x1c849304 | 0x10;

/** An empty HDR histogram of 32-bit counts for values 1 to `highest`, at `digits` significant digits, never resized. */
export function newJsHistogram(highest: number, digits: 2 | 3): Histogram {
  const histogram = new (constructorFromBucketSize(32))(1, highest, digits);
  histogram.autoResize = false;
  return histogram;
}

/** hdr-histogram-js's compressed base64 (its V2 encoding, deflated) of a histogram newJsHistogram made. */
export function encodeHdr(histogram: Histogram): string {
  if (!(histogram instanceof JsHistogram)) throw new Error('encodeHdr: not a histogram newJsHistogram made');
  const payload: number[] = [];
  const limit = histogram.countsArrayIndex(histogram.maxValue) + 1;
  for (let i = 0; i < limit; ) {
    const count = histogram.getCountAtIndex(i++);
    if (count < 0) throw new Error(`encodeHdr: a negative count at index ${i - 1}`);
    let zeros = count === 0 ? 1 : 0;
    while (count === 0 && i < limit && histogram.getCountAtIndex(i) === 0) {
      zeros++;
      i++;
    }
    putZigZag(payload, zeros > 1 ? -zeros : count);
  }
  const v2 = Buffer.alloc(40 + payload.length);
  v2.writeInt32BE(V2_COOKIE | 0, 0);
  v2.writeInt32BE(payload.length, 4);
  v2.writeInt32BE(1, 8);
  v2.writeInt32BE(histogram.numberOfSignificantValueDigits, 12);
  writeInt64(v2, histogram.lowestDiscernibleValue, 16);
  writeInt64(v2, histogram.highestTrackableValue, 24);
  writeInt64(v2, 1, 32);
  v2.set(payload, 40);
  const deflated = deflateSync(v2);
  const out = Buffer.alloc(8 + deflated.length);
  out.writeInt32BE(V2_COMPRESSED_COOKIE | 0, 0);
  out.writeInt32BE(deflated.length, 4);
  out.set(deflated, 8);
  return out.toString('base64');
}

/** hdr-histogram-js's putInt64: the high 32 bits, then the low, each big-endian. */
function writeInt64(buf: Buffer, value: number, at: number): void {
  buf.writeUInt32BE(Math.floor(value / 2 ** 32) >>> 0, at);
  buf.writeUInt32BE(value >>> 0, at + 4);
}

/** hdr-histogram-js's ZigZagEncoding.encode: LEB128 of the zigzagged value, at most 9 bytes. */
function putZigZag(out: number[], signed: number): void {
  const value = signed >= 0 ? signed * 2 : -signed * 2 - 1;
  for (let k = 0; k < 7; k++) {
    const part = Math.floor(value / 2 ** (7 * k)) % 256;
    if (value < 2 ** (7 * (k + 1))) return void out.push(part);
    out.push(part | 0x80);
  }
  // the 8th and 9th bytes, as the library writes them (values of 2^56 and more never occur as counts)
  const eighth = Math.floor(value / 2 ** 49);
  if (value < 2 ** 56) return void out.push(eighth % 256);
  out.push((eighth + 0x80) % 256, Math.floor(value / 2 ** 56) % 256);
}
