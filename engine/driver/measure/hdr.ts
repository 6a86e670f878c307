import type { Histogram } from 'hdr-histogram-js';
import { JsHistogram } from 'hdr-histogram-js/dist/JsHistogram.js';
import 'hdr-histogram-js/dist/JsHistogram.encoding.js';
import { constructorFromBucketSize } from 'hdr-histogram-js/dist/JsHistogramFactory.js';

// The two parts of hdr-histogram-js the driver's worker uses, imported from their own files: the
// package's index also loads its WebAssembly build, the log reader and writer and their helpers,
// twice the CPU at every run's start (~30 ms against ~15 here; issue 42). The same classes as the
// index's `build({ useWebAssembly: false })` and `encodeIntoCompressedBase64`, so the same bytes.
// JsHistogram.encoding.js is imported for its effect: it gives JsHistogram its encoding methods.

/** An empty HDR histogram of 32-bit counts for values 1 to `highest`, at `digits` significant digits, never resized. */
export function newJsHistogram(highest: number, digits: 2 | 3): Histogram {
  const histogram = new (constructorFromBucketSize(32))(1, highest, digits);
  histogram.autoResize = false;
  return histogram;
}

/** hdr-histogram-js's compressed base64 of a histogram newJsHistogram made. */
export function encodeHdr(histogram: Histogram): string {
  if (!(histogram instanceof JsHistogram)) throw new Error('encodeHdr: not a histogram newJsHistogram made');
  return histogram.encodeIntoCompressedBase64();
}
