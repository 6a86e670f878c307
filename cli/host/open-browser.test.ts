import { readFileSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openBrowser } from './open-browser.js';

// `ui --open` must not put the token in another process's argv (readable by anyone with ps).
describe('openBrowser', () => {
  it('hands the opener a private page that redirects, never the URL with the token', () => {
    const url = 'http://127.0.0.1:4321/?token=SECRET-abc_123';
    const calls: string[][] = [];
    const why = openBrowser(url, {
      opener: { command: 'xdg-open', args: [] },
      spawn: (command, args) => {
        calls.push([command, ...args]);
        return { on: () => undefined, unref: () => undefined };
      },
    });
    expect(why).toBeNull();
    expect(calls).toHaveLength(1);
    expect(calls[0]!.join(' ')).not.toContain('SECRET');
    const page = calls[0]![1]!;
    expect(readFileSync(page, 'utf8')).toContain('location.replace("http://127.0.0.1:4321/?token=SECRET-abc_123")');
    expect(statSync(page).mode & 0o077).toBe(0);
    expect(statSync(dirname(page)).mode & 0o077).toBe(0);
  });
});
