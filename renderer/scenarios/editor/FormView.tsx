import { useMemo } from 'react';
import { formatDocPath, parseDocPath, setAt, type Segment } from './doc-path';
import { Field, Section, type FormBinding } from './form-fields';
import { MatrixSection, QuickSection, ThresholdsSection } from './form-extras';
import { DataSection } from './form-data';
import { PhasesSection } from './form-phases';
import { ServersSection } from './form-servers';
import type { EditorIssue } from './issues';

/** The form view of the document: what people change most; every edit is written back as the JSON text. */
export function FormView({ doc, onDoc, issues }: { doc: unknown; onDoc: (doc: unknown) => void; issues: readonly EditorIssue[] }) {
  // by the form's own path names: a quick or matrix entry's issue (`quick["phases[0].durationMs"]`) shows on its row
  const errors = useMemo(() => new Map(issues.map((i) => [formatDocPath(parseDocPath(i.path)), i.message])), [issues]);
  const b: FormBinding = { doc, errors, update: (path: readonly Segment[], value: unknown) => onDoc(setAt(doc, path, value)) };
  return (
    <div className="form-view" data-testid="form-view">
      <Section title="Scenario">
        <div className="form-grid">
          <Field b={b} path={['name']} label="name" placeholder="my-scenario" hint="lower-case letters, digits and dashes" />
          <Field b={b} path={['title']} label="title" />
          <Field b={b} path={['description']} label="description" />
        </div>
      </Section>
      <ServersSection b={b} />
      <DataSection b={b} />
      <PhasesSection b={b} />
      <ThresholdsSection b={b} />
      <MatrixSection b={b} />
      <QuickSection b={b} />
    </div>
  );
}
