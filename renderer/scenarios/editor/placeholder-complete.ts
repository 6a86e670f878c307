import type { CompletionContext, CompletionResult } from '@codemirror/autocomplete';
import { ensureSyntaxTree, syntaxTree } from '@codemirror/language';
import type { EditorState } from '@codemirror/state';
import { BUILTIN_PLACEHOLDERS, type BuiltinPlaceholder } from '../../../contract/variables';
import { pathOfNode, valueNodeAt } from './json-locate';

// Completing {{placeholders}} inside the code view's strings (the grammar is contract/variables.ts):
// the built-ins, the data columns this scenario already reads, and in a flow the variables the
// steps before this one extract.

const BUILTIN_TEXT: Record<BuiltinPlaceholder, { label: string; info: string }> = {
  counter: { label: 'counter', info: "the request's number in its phase: 1, 2, ..." },
  randomInt: { label: 'randomInt 1 100', info: "a whole number in the range, from the phase's seed" },
  uuid: { label: 'uuid', info: 'a random UUID (v4)' },
  now: { label: 'now', info: 'the send time, ms since the epoch' },
  isoTime: { label: 'isoTime', info: 'the send time, ISO 8601' },
  user: { label: 'user', info: 'the number of the user (or connection) sending it, from 1' },
};

/** `{{vars.x}}` names the steps before `step` of a flow phase extract, in step order. */
function earlierVars(state: EditorState, phase: number, step: number): string[] {
  if (valueNodeAt(state, ['phases', phase, 'flow'])?.name !== 'True') return [];
  const vars: string[] = [];
  for (let i = 0; i < step; i++) {
    const v = valueNodeAt(state, ['phases', phase, 'requests', i, 'extract', 'var']);
    if (v?.name !== 'String') continue;
    try {
      vars.push(JSON.parse(state.sliceDoc(v.from, v.to)) as string);
    } catch {
      // a half-typed name: nothing to offer yet
    }
  }
  return [...new Set(vars)];
}

/** Columns the scenario's own strings already read as {{data.<column>}} (the file is read at the run). */
function knownColumns(state: EditorState): string[] {
  return [...new Set([...state.doc.toString().matchAll(/\{\{data\.([A-Za-z_][\w.-]*)\}\}/g)].map((m) => m[1]!))];
}

export function placeholderCompletion(ctx: CompletionContext): CompletionResult | null {
  const node = (ensureSyntaxTree(ctx.state, ctx.pos, 200) ?? syntaxTree(ctx.state)).resolveInner(ctx.pos, -1);
  if (node.name !== 'String') return null;
  const before = ctx.state.sliceDoc(node.from, ctx.pos);
  const open = /(?<!\\)\{\{([\w.-]*)$/.exec(before);
  if (!open) return null;
  const from = ctx.pos - open[1]!.length;
  const closed = ctx.state.sliceDoc(ctx.pos, ctx.pos + 2) === '}}';
  const apply = (text: string) => (closed ? text : `${text}}}`);
  const path = pathOfNode(ctx.state, node);
  const [p, phase, r, step] = path;
  const inRequest = p === 'phases' && typeof phase === 'number' && r === 'requests' && typeof step === 'number';
  const vars = inRequest ? earlierVars(ctx.state, phase, step) : [];
  return {
    from,
    validFor: /^[\w. -]*$/,
    options: [
      ...vars.map((v) => ({ label: `vars.${v}`, apply: apply(`vars.${v}`), detail: 'an earlier step', type: 'variable', boost: 2 })),
      ...knownColumns(ctx.state).map((c) => ({ label: `data.${c}`, apply: apply(`data.${c}`), detail: 'data column', type: 'property', boost: 1 })),
      ...BUILTIN_PLACEHOLDERS.map((b) => ({ label: BUILTIN_TEXT[b].label, apply: apply(BUILTIN_TEXT[b].label), info: BUILTIN_TEXT[b].info, type: 'function' })),
    ],
  };
}
