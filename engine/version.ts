import { readFileSync } from 'node:fs';
import { rootPath } from './paths.js';

let cached: string | undefined;

export function version(): string {
  cached ??= (JSON.parse(readFileSync(rootPath('package.json'), 'utf8')) as { version?: string }).version ?? '0.0.0';
  return cached;
}
