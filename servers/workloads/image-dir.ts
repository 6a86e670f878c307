import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Where the image workload's pictures live: os.tmpdir()/loadscope-images-<top pid>/, made by the top
// server process at start; children (processes and threads) find it through LOADSCOPE_IMAGE_DIR.

export const IMAGE_DIR_ENV = 'LOADSCOPE_IMAGE_DIR';

export function imageDir(): string {
  return process.env[IMAGE_DIR_ENV] ?? join(tmpdir(), `loadscope-images-${process.pid}`);
}

export function sourcePath(dir: string, index: number): string {
  return join(dir, `source-${index}.jpg`);
}
