import { z } from 'zod';
import { ARCHITECTURES, architectureOptions, type Architecture } from '../../../contract/servers';
import { STREAMS_HINT } from '../../../contract/connection-figures';
import { getAt } from './doc-path';
import { Field, Item, Section, SelectField, type FormBinding } from './form-fields';

// Servers: the architecture, its options (read from the contract's own option schemas, so a new
// option shows up here without a change), label and cores; or an external server's URL.

interface OptionField {
  key: string;
  description: string;
  choices: string[] | null;
}

export const optionFields = (arch: Architecture): OptionField[] => {
  const schema = z.toJSONSchema(architectureOptions[arch], { io: 'input' });
  const props = (schema.properties ?? {}) as Record<string, { description?: string; enum?: unknown[] }>;
  return Object.entries(props).map(([key, p]) => ({ key, description: p.description ?? '', choices: Array.isArray(p.enum) ? p.enum.map(String) : null }));
};

const speaksH2 = (protocol: unknown): boolean => protocol === 'h2' || protocol === 'h2c';

export const isArchitecture = (v: unknown): v is Architecture => typeof v === 'string' && (ARCHITECTURES as readonly string[]).includes(v);

export function ServersSection({ b }: { b: FormBinding }) {
  const servers = getAt(b.doc, ['servers']);
  const list = Array.isArray(servers) ? servers : [];
  return (
    <Section title="Servers" addLabel="server" path="servers" b={b} onAdd={() => b.update(['servers', list.length], { architecture: 'single' })}>
      {list.map((_, i) => {
        const arch = getAt(b.doc, ['servers', i, 'architecture']);
        return (
          <Item key={i} title={`server ${i + 1}`} path={`servers[${i}]`} b={b} onRemove={() => b.update(['servers', i], undefined)}>
            <SelectField
              b={b}
              path={['servers', i, 'architecture']}
              label="architecture"
              options={[...ARCHITECTURES, 'external']}
              onSelect={(v) => b.update(['servers', i], v === 'external' ? { architecture: v, url: 'http://127.0.0.1:8080' } : { architecture: v })}
            />
            <Field b={b} path={['servers', i, 'label']} label="label" placeholder={typeof arch === 'string' ? arch : ''} />
            <Field b={b} path={['servers', i, 'cores']} label="cores" kind="number" placeholder="all" hint="limit the server to K cores" />
            {isArchitecture(arch) &&
              optionFields(arch).map((o) =>
                o.choices ? (
                  <SelectField key={o.key} b={b} path={['servers', i, 'options', o.key]} label={o.key} options={o.choices} />
                ) : (
                  <Field key={o.key} b={b} path={['servers', i, 'options', o.key]} label={o.key} kind="number" placeholder="default" hint={o.description} />
                ),
              )}
            {arch === 'external' && <Field b={b} path={['servers', i, 'url']} label="url" placeholder="http://127.0.0.1:8080" />}
            {/* over h2 the connections a run opens follow from streams (issue 36: 29 connections, unsaid) */}
            {(speaksH2(getAt(b.doc, ['servers', i, 'options', 'protocol'])) || speaksH2(getAt(b.doc, ['servers', i, 'protocol']))) && (
              <Field b={b} path={['servers', i, 'streams']} label="streams" kind="number" placeholder="1" note={STREAMS_HINT} />
            )}
          </Item>
        );
      })}
    </Section>
  );
}
