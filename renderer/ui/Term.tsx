import { glossaryFor } from '../../contract/engine-figures';
import type { GlossaryTerm } from '../../contract/measurement';
import type { RunEngine } from '../../contract/results';

/** A measured quantity's name with its definition on hover: the glossary the CLI footer and docs share (as it holds for the run's engine). */
export function Term({ name, label, engine = 'native' }: { name: GlossaryTerm; label?: string; engine?: RunEngine }) {
  return (
    <abbr className="term" title={`${name}: ${glossaryFor(engine)[name]}`} data-term={name}>
      {label ?? name}
    </abbr>
  );
}
