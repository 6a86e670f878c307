import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

// Files shaped like the secrets a hostile scenario names as its data (issue 35): /etc/shadow's lines
// and a PEM private key (its first line is predictable, so a scenario can name it as a column).
// Tests check that no piece of their text reaches an error.

export const SHADOW_TEXT = 'root:*:20228:0:99999:7:::\ndaemon:*:20228:0:99999:7:::\nalice:$y$j9T$Qm3xV0hWbq:20228:0:99999:7:::\n';

export const PEM_KEY_TEXT = [
  '-----BEGIN PRIVATE KEY-----',
  'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQDf3ZkPq9Xv2c7Y',
  'hT0kq8sWm1u4ZQw3RrBv9NnXpLcAaE5oTj2fKdUyVgHb6iMzQe0OsWxCl7Jt1PqS',
  '-----END PRIVATE KEY-----',
  '',
].join('\n');

/** Writes the shadow-shaped and the key-shaped file into `dir`: their paths. */
export function writeSecretFiles(dir: string): { shadow: string; key: string } {
  const shadow = join(dir, 'shadow');
  const key = join(dir, 'id_key.pem');
  writeFileSync(shadow, SHADOW_TEXT);
  writeFileSync(key, PEM_KEY_TEXT);
  return { shadow, key };
}

/**
 * The pieces of `secret` found in `text`: every run of 6 characters of a line of it that is not
 * blank. [] when `text` quotes none of it (a single letter may of course appear in any sentence).
 */
export function quotedPieces(secret: string, text: string): string[] {
  const found = new Set<string>();
  for (const line of secret.split('\n')) {
    for (let i = 0; i + 6 <= line.length; i++) {
      const piece = line.slice(i, i + 6);
      if (piece.trim() !== '' && text.includes(piece)) found.add(piece);
    }
  }
  return [...found];
}
