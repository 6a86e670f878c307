import { LoadscopeError } from '../../contract/errors.js';
import type { ClientProtocol, ServerSpec } from '../../contract/scenario.js';
import type { DriverTls } from '../driver/driver.js';
import { readRegularFile } from '../regular-file.js';
import { TLS_FILE_MAX_BYTES } from '../scenario/tls-files.js';
import type { ReadinessTls } from '../supervisor/readiness.js';

// What the driver trusts for a server run's https:// target: a bundled server's own self-signed
// certificate (the engine made the server, so exactly that certificate verifies, nothing else), or
// an external server's tls settings with their files read now (paths made absolute when prepared).

/**
 * A TLS file's text (`what`: "tls.ca"), read as a regular file of at most TLS_FILE_MAX_BYTES: it was
 * checked when the run was prepared, but may have changed since. The k6 generator reads its client
 * certificate through this too.
 */
export function readTlsFile(file: string, what: string): string {
  const read = readRegularFile(file, TLS_FILE_MAX_BYTES, 'a TLS file');
  if ('refused' in read) throw new LoadscopeError('LS_ERR_SCENARIO_INVALID', `${what}: ${file} ${read.refused}`);
  return read.text;
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
    ...(tls.ca !== undefined && { ca: readTlsFile(tls.ca, 'tls.ca') }),
    ...(tls.cert !== undefined && { cert: readTlsFile(tls.cert, 'tls.cert') }),
    ...(tls.key !== undefined && { key: readTlsFile(tls.key, 'tls.key') }),
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
