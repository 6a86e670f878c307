import { z } from 'zod';
import { LoadscopeError } from '../contract/errors.js';
import { ARCHITECTURES, Architecture, architectureOptions, type ArchitectureOptions } from '../contract/servers.js';

// The bundled architectures' options as the CLI shows and reads them, derived from the same zod
// schemas the scenario format and the servers use (contract/servers.ts), so the listing never drifts.

export interface OptionInfo {
  name: string;
  /** 'integer', 'number', 'boolean', 'string' or 'a | b' for an enum */
  type: string;
  default: unknown;
  range: string;
  description: string;
}

interface JsonProp {
  type?: string;
  enum?: unknown[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
  description?: string;
}

export function architectureOptionInfo(architecture: Architecture): OptionInfo[] {
  const json = z.toJSONSchema(architectureOptions[architecture], { io: 'input' }) as { properties?: Record<string, JsonProp> };
  return Object.entries(json.properties ?? {}).map(([name, p]) => ({
    name,
    type: p.enum ? p.enum.map(String).join(' | ') : (p.type ?? 'string'),
    default: p.default,
    range: rangeText(p.minimum, p.maximum),
    description: p.description ?? '',
  }));
}

function rangeText(min: number | undefined, max: number | undefined): string {
  const hasMax = max !== undefined && max < Number.MAX_SAFE_INTEGER;
  if (min === undefined && !hasMax) return '';
  return hasMax ? `${min ?? ''}..${max}` : `>= ${min}`;
}

export function parseArchitecture(name: string): Architecture {
  const parsed = Architecture.safeParse(name);
  if (!parsed.success) {
    throw new LoadscopeError('LS_ERR_BAD_REQUEST', `unknown architecture '${name}'; known: ${ARCHITECTURES.join(', ')}`);
  }
  return parsed.data;
}

function coerce(text: string, type: string): unknown {
  if (type === 'integer' || type === 'number') {
    const n = Number(text);
    return text.trim() === '' || !Number.isFinite(n) ? text : n;
  }
  if (type === 'boolean') return text === 'true' ? true : text === 'false' ? false : text;
  return text;
}

/**
 * `--workers 4 --dispatch=least-busy` -> validated options of that architecture. Every problem is
 * reported at once, each with the option's name and the reason.
 */
export function parseArchitectureArgs<A extends Architecture>(architecture: A, args: readonly string[]): ArchitectureOptions[A] {
  const infos = new Map(architectureOptionInfo(architecture).map((o) => [o.name, o]));
  const raw: Record<string, unknown> = {};
  const problems: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const match = /^--([A-Za-z][\w-]*)(?:=(.*))?$/.exec(arg);
    if (!match) {
      problems.push(`'${arg}' is not an option (options look like --name value)`);
      continue;
    }
    const name = match[1]!;
    const info = infos.get(name);
    if (!info) {
      problems.push(`--${name}: not an option of ${architecture} (its options: ${[...infos.keys()].map((k) => `--${k}`).join(', ') || 'none'})`);
      if (match[2] === undefined && args[i + 1] !== undefined && !args[i + 1]!.startsWith('--')) i++;
      continue;
    }
    let value = match[2];
    if (value === undefined) {
      value = args[i + 1];
      if (value === undefined || value.startsWith('--')) {
        problems.push(`--${name}: needs a value (${info.type})`);
        continue;
      }
      i++;
    }
    const coerced = coerce(value, info.type);
    if (typeof coerced === 'string' && info.type !== 'string' && !info.type.includes(' | ')) {
      problems.push(`--${name}: must be ${info.type === 'boolean' ? 'true or false' : `a${info.type === 'integer' ? ' whole' : ''} number`}, got '${value}'`);
      continue;
    }
    raw[name] = coerced;
  }
  const parsed = architectureOptions[architecture].safeParse(raw);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) problems.push(`--${issue.path.join('.')}: ${issue.message}`);
  }
  if (problems.length > 0 || !parsed.success) {
    throw new LoadscopeError('LS_ERR_BAD_REQUEST', `bad options for ${architecture}: ${problems.join('; ')}`);
  }
  return parsed.data as ArchitectureOptions[A];
}
