import { Architecture, architectureOptions, type ArchitectureOptions } from '../contract/servers.js';

// The launcher's command line: `<architecture> [--options '<json>'] [--port N] [--host H]`, parsed
// with the contract's option schema for that architecture. Every failure is a one-line reason.

export class OptionsError extends Error {
  override readonly name = 'OptionsError';
}

export interface Launch<A extends Architecture = Architecture> {
  architecture: A;
  options: ArchitectureOptions[A];
  port: number;
  host: string;
}

function zodReason(error: { issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }> }): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid options';
  const where = issue.path.map(String).join('.');
  return where ? `${where}: ${issue.message}` : issue.message;
}

/** Checks across fields that the per-field schema cannot express. */
function crossCheck(architecture: Architecture, options: ArchitectureOptions[Architecture]): void {
  if (architecture === 'autoscale') {
    const o = options as ArchitectureOptions['autoscale'];
    if (o.min > o.max) throw new OptionsError(`min (${o.min}) must not exceed max (${o.max})`);
    if (o.initial > o.max) throw new OptionsError(`initial (${o.initial}) must not exceed max (${o.max})`);
  }
}

export function parseOptions<A extends Architecture>(architecture: A, raw: unknown): ArchitectureOptions[A] {
  const parsed = architectureOptions[architecture].safeParse(raw);
  if (!parsed.success) throw new OptionsError(`bad ${architecture} options: ${zodReason(parsed.error)}`);
  const options = parsed.data as ArchitectureOptions[A];
  crossCheck(architecture, options);
  return options;
}

export function parseLaunchArgs(argv: readonly string[]): Launch {
  const [name, ...rest] = argv;
  const architecture = Architecture.safeParse(name);
  if (!architecture.success) throw new OptionsError(`unknown architecture '${name ?? ''}' (one of: ${Architecture.options.join(', ')})`);
  let raw: unknown = {};
  let port = 0;
  let host = '127.0.0.1';
  for (let i = 0; i < rest.length; i += 2) {
    const flag = rest[i];
    const value = rest[i + 1];
    if (value === undefined) throw new OptionsError(`${flag} needs a value`);
    if (flag === '--options') {
      try {
        raw = JSON.parse(value);
      } catch {
        throw new OptionsError('--options must be JSON');
      }
    } else if (flag === '--port') {
      port = Number(value);
      if (!/^\d+$/.test(value) || port > 65535) throw new OptionsError(`--port must be 0..65535, got '${value}'`);
    } else if (flag === '--host') {
      host = value;
    } else {
      throw new OptionsError(`unknown argument '${flag}' (use --options, --port, --host)`);
    }
  }
  return { architecture: architecture.data, options: parseOptions(architecture.data, raw), port, host };
}
