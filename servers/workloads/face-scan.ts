// The pure-JS analysis step that stands in for seed 000's face detection (which took about two thirds
// of that pipeline's time): a sliding-window scan over the pixels scoring each window by skin-tone
// ratio and edge density, then the best non-overlapping windows resampled to 64x64 crops. It is
// deliberately a naive O(windows x window area) scan, like a cascade detector's inner loop.

export const CROP_SIZE = 64;
const WINDOWS = [48, 72];
const STEP = 6;
const MAX_FACES = 4;

export interface FaceBox {
  x: number;
  y: number;
  size: number;
  score: number;
}

export interface FaceScan {
  boxes: FaceBox[];
  crops: Uint8Array[];
}

/** 1 where the pixel looks like skin (a classic RGB rule), plus a Sobel-like edge magnitude 0..1. */
function featureMaps(rgba: Uint8ClampedArray, width: number, height: number): { skin: Float32Array; edge: Float32Array } {
  const skin = new Float32Array(width * height);
  const luma = new Float32Array(width * height);
  for (let i = 0, p = 0; i < skin.length; i++, p += 4) {
    const r = rgba[p]!, g = rgba[p + 1]!, b = rgba[p + 2]!;
    luma[i] = 0.299 * r + 0.587 * g + 0.114 * b;
    const max = Math.max(r, g, b), min = Math.min(r, g, b);
    skin[i] = r > 95 && g > 40 && b > 20 && max - min > 15 && Math.abs(r - g) > 15 && r > g && r > b ? 1 : 0;
  }
  const edge = new Float32Array(width * height);
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      const gx = luma[i + 1]! - luma[i - 1]! + 0.5 * (luma[i - width + 1]! - luma[i - width - 1]! + luma[i + width + 1]! - luma[i + width - 1]!);
      const gy = luma[i + width]! - luma[i - width]! + 0.5 * (luma[i + width - 1]! - luma[i - width - 1]! + luma[i + width + 1]! - luma[i - width + 1]!);
      edge[i] = Math.min(1, Math.sqrt(gx * gx + gy * gy) / 255);
    }
  }
  return { skin, edge };
}

function windowScore(skin: Float32Array, edge: Float32Array, width: number, x0: number, y0: number, size: number): number {
  let skinSum = 0;
  let edgeSum = 0;
  for (let y = y0; y < y0 + size; y++) {
    const row = y * width;
    for (let x = x0; x < x0 + size; x++) {
      skinSum += skin[row + x]!;
      edgeSum += edge[row + x]!;
    }
  }
  const area = size * size;
  return (0.75 * skinSum) / area + (0.25 * edgeSum) / area;
}

function overlaps(a: FaceBox, b: FaceBox): boolean {
  return a.x < b.x + b.size && b.x < a.x + a.size && a.y < b.y + b.size && b.y < a.y + a.size;
}

/** Bilinear resample of a square region to CROP_SIZE x CROP_SIZE RGBA. */
function crop(rgba: Uint8ClampedArray, width: number, box: FaceBox): Uint8Array {
  const out = new Uint8Array(CROP_SIZE * CROP_SIZE * 4);
  const scale = box.size / CROP_SIZE;
  for (let y = 0; y < CROP_SIZE; y++) {
    const sy = box.y + y * scale;
    const y0 = Math.floor(sy), fy = sy - y0, y1 = Math.min(y0 + 1, box.y + box.size - 1);
    for (let x = 0; x < CROP_SIZE; x++) {
      const sx = box.x + x * scale;
      const x0 = Math.floor(sx), fx = sx - x0, x1 = Math.min(x0 + 1, box.x + box.size - 1);
      for (let c = 0; c < 4; c++) {
        const a = rgba[(y0 * width + x0) * 4 + c]!, b = rgba[(y0 * width + x1) * 4 + c]!;
        const d = rgba[(y1 * width + x0) * 4 + c]!, e = rgba[(y1 * width + x1) * 4 + c]!;
        out[(y * CROP_SIZE + x) * 4 + c] = (a * (1 - fx) + b * fx) * (1 - fy) + (d * (1 - fx) + e * fx) * fy;
      }
    }
  }
  return out;
}

export function scanFaces(rgba: Uint8ClampedArray, width: number, height: number): FaceScan {
  const { skin, edge } = featureMaps(rgba, width, height);
  const candidates: FaceBox[] = [];
  for (const size of WINDOWS) {
    for (let y = 0; y + size <= height; y += STEP) {
      for (let x = 0; x + size <= width; x += STEP) {
        const score = windowScore(skin, edge, width, x, y, size);
        if (score > 0.35) candidates.push({ x, y, size, score });
      }
    }
  }
  candidates.sort((a, b) => b.score - a.score);
  const boxes: FaceBox[] = [];
  for (const c of candidates) {
    if (boxes.length >= MAX_FACES) break;
    if (!boxes.some((b) => overlaps(b, c))) boxes.push(c);
  }
  return { boxes, crops: boxes.map((b) => crop(rgba, width, b)) };
}
