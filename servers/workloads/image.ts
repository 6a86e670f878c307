import { createCipheriv, randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { createCanvas, Image } from '@napi-rs/canvas';
import { scanFaces } from './face-scan.js';
import { imageDir, sourcePath } from './image-dir.js';
import { generateImageSources } from './image-source.js';

// Seed 000's "real problem" pipeline, step for step, synchronous (it occupies its thread like fib):
// 1 read the picture file, decode it; 2 resize to 600 px wide keeping the aspect, watermark;
// 3 find faces (pure JS) and crop them to 64x64; 4 AES-256 encrypt, text (base64) result;
// 5 gzip; 6 write the file. The answer names the file written and its size.

export const IMAGE_WIDTH = 600;
const key = randomBytes(32);
const OUTPUT_SLOTS = 1024; // output names rotate, so a long run does not fill the disk
let sequence = 0;

export interface ImageAnswer {
  image: number;
  width: number;
  height: number;
  faces: number;
  path: string;
  bytes: number;
  stepsMs: Record<'decode' | 'resize' | 'detect' | 'encrypt' | 'gzip' | 'write', number>;
}

export function processImage(index: number): ImageAnswer {
  const dir = imageDir();
  if (!existsSync(sourcePath(dir, index))) generateImageSources(dir);
  let t = performance.now();
  const lap = (): number => {
    const now = performance.now();
    const elapsed = Math.round((now - t) * 1000) / 1000;
    t = now;
    return elapsed;
  };

  const picture = new Image();
  picture.src = readFileSync(sourcePath(dir, index));
  const decode = lap();

  const height = Math.round((picture.height * IMAGE_WIDTH) / picture.width);
  const canvas = createCanvas(IMAGE_WIDTH, height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(picture, 0, 0, IMAGE_WIDTH, height);
  ctx.font = 'bold 28px sans-serif';
  ctx.fillStyle = 'rgba(255, 255, 255, 0.55)';
  ctx.fillText('loadscope', IMAGE_WIDTH - 170, height - 20);
  const resized = canvas.toBuffer('image/jpeg', 85);
  const resize = lap();

  const pixels = ctx.getImageData(0, 0, IMAGE_WIDTH, height);
  const { crops } = scanFaces(pixels.data, IMAGE_WIDTH, height);
  const detect = lap();

  const iv = randomBytes(16);
  const cipher = createCipheriv('aes-256-cbc', key, iv);
  const encrypted = Buffer.concat([cipher.update(resized), ...crops.map((c) => cipher.update(c)), cipher.final()]);
  const text = `${iv.toString('base64')}:${encrypted.toString('base64')}`;
  const encrypt = lap();

  const compressed = gzipSync(text);
  const gzip = lap();

  const path = join(dir, `out-${process.pid}-${sequence++ % OUTPUT_SLOTS}.aes.gz`);
  writeFileSync(path, compressed);
  const write = lap();

  return {
    image: index,
    width: IMAGE_WIDTH,
    height,
    faces: crops.length,
    path,
    bytes: compressed.length,
    stepsMs: { decode, resize, detect, encrypt, gzip, write },
  };
}
