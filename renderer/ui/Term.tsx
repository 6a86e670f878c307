import { GLOSSARY, type GlossaryTerm } from '../../contract/measurement';

/** A measured quantity's name with its definition on hover: the glossary the CLI footer and docs share. */
export function Term({ name, label }: { name: GlossaryTerm; label?: string }) {
  return (
    <abbr className="term" title={`${name}: ${GLOSSARY[name]}`} data-term={name}>
      {label ?? name}
    </abbr>
  );
}
