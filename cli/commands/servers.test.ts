import { describe, expect, it } from 'vitest';
import { ARCHITECTURES } from '../../contract/servers.js';
import { architectureOptionInfo } from '../server-options.js';
import { optionLine } from './servers.js';

// `loadscope servers` prints each option with its default, and an option without one (protocol:
// absent means http) without "default undefined" (issue 36).

describe('loadscope servers: the option lines', () => {
  it('every option of every architecture: its default where it has one, never "undefined"', () => {
    const lines = ARCHITECTURES.flatMap((a) => architectureOptionInfo(a).map(optionLine));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).not.toMatch(/undefined/);
    const protocol = lines.find((l) => l.startsWith('  --protocol '));
    expect(protocol).toMatch(/^ {2}--protocol <http \| https \| h1 \| h1-tls \| h2 \| h2c> {2}absent: 'http'/);
    expect(lines.some((l) => /^ {2}--\w+ <[^>]+> {2}default \S+: /.test(l))).toBe(true);
  });
});
