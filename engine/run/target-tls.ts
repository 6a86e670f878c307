import { readFileSync } from 'node:fs';
import { LoadscopeError } from '../../contract/errors.js';
import type { ClientProtocol, ServerSpec } from '../../contract/scenario.js';
import type { DriverTls } from '../driver/driver.js';
import type { ReadinessTls } from '../supervisor/readiness.js';

// What the driver trusts for a server run's https:// target: a bundled server's own self-signed
// certificate (the engine made the server, so exactly that certificate verifies, nothing else), or
// an external server's tls settings with their files read now (paths made absolute when prepared).

function readPem(file: string, what: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw new LoadscopeError('LS_ERR_SCENARIO_INVALID', `${what}: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

/** What the driver speaks to a server: a bundled server's protocol option decides it, an external one says it. */
export function driverProtocol(spec: ServerSpec): ClientProtocol {
  if (spec.architecture === 'external') return spec.protocol ?? 'h1';
  const served = spec.options.protocol;
  return served === 'h2' || served === 'h2c' ? served : 'h1';
}

export function driverTls(spec: ServerSpec, cert: string | undefined): DriverTls | undefined {
  if (spec.architecture !== 'external') return cert === undefined ? undefined : { insecure: false, ca: cert };
  const tls = spec.tls;
  if (tls === undefined) return undefined;
  return {
    insecure: tls.insecure,
    ...(tls.ca !== undefined && { ca: readPem(tls.ca, 'tls.ca') }),
    ...(tls.cert !== undefined && { cert: readPem(tls.cert, 'tls.cert') }),
    ...(tls.key !== undefined && { key: readPem(tls.key, 'tls.key') }),
    ...(tls.servername !== undefined && { servername: tls.servername }),
  };
}

/** An external https target's client certificate and SNI name, for its readiness probe (it may answer no one without them). */
export function readinessTls(spec: ServerSpec): ReadinessTls | undefined {
  const tls = spec.architecture === 'external' ? driverTls(spec, undefined) : undefined;
  if (tls === undefined) return undefined;
  return {
    ...(tls.cert !== undefined && { cert: tls.cert }),
    ...(tls.key !== undefined && { key: tls.key }),
    ...(tls.servername !== undefined && { servername: tls.servername }),
  };
}
