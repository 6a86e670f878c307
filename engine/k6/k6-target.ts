import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { LoadscopeError } from '../../contract/errors.js';
import { connectHost, isLoopbackAddress, notLoopback } from '../net/target-guard.js';

// k6 resolves names itself, past Loadscope's guarded lookup (engine/net/target-guard.ts), so what k6
// is given must already be an address on this machine: an IP literal in 127.0.0.0/8 or ::1. A name is
// resolved here, every address must be loopback, and k6 gets the URL with the address in its place.

function parse(url: string): URL {
  try {
    const u = new URL(url);
    if ((u.protocol !== 'http:' && u.protocol !== 'https:') || u.username || u.password) throw new Error('bad');
    return u;
  } catch {
    throw new LoadscopeError('LS_ERR_BAD_REQUEST', `${url} is not an http(s) URL without user info`);
  }
}

const strip = (u: URL) => u.toString().replace(/\/$/, '');

/** For a script written to a file: a loopback IP literal or `localhost`, else LS_ERR_NOT_LOOPBACK. */
export function checkExportTarget(url: string): string {
  const u = parse(url);
  const host = connectHost(url);
  if (host === 'localhost' || (isIP(host) !== 0 && isLoopbackAddress(host))) return strip(u);
  throw notLoopback(host, host);
}

/** The target guard's refusal says consent would help; for a k6 run it would not, so this one says so. */
function k6NotLoopback(host: string, address: string): LoadscopeError {
  const where = host === address ? address : `${host} (${address})`;
  return new LoadscopeError('LS_ERR_NOT_LOOPBACK', `a k6 run sends load only to this machine (127.0.0.0/8, ::1), even with --allow-remote; refused ${where}; Loadscope's own driver (--engine native) sends there with --allow-remote`);
}

/** For k6 run here: the URL with its host as a loopback address (resolved here), else LS_ERR_NOT_LOOPBACK. */
export async function k6LoopbackUrl(url: string): Promise<string> {
  const u = parse(url);
  const host = connectHost(url);
  if (isIP(host) !== 0) {
    if (!isLoopbackAddress(host)) throw k6NotLoopback(host, host);
    return strip(u);
  }
  const addresses = await lookup(host, { all: true });
  const outside = addresses.find((a) => !isLoopbackAddress(a.address));
  if (addresses.length === 0 || outside) throw k6NotLoopback(host, outside?.address ?? 'no address');
  const first = addresses[0]!;
  u.hostname = first.family === 6 ? `[${first.address}]` : first.address;
  return strip(u);
}
