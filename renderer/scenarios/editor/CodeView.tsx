import { autocompletion, closeBrackets } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { json, jsonLanguage } from '@codemirror/lang-json';
import { bracketMatching, foldGutter } from '@codemirror/language';
import { lintGutter, setDiagnostics, type Diagnostic } from '@codemirror/lint';
import { EditorState } from '@codemirror/state';
import { oneDark } from '@codemirror/theme-one-dark';
import { EditorView, highlightActiveLine, hoverTooltip, keymap, lineNumbers } from '@codemirror/view';
import { jsonCompletion, jsonSchemaHover, stateExtensions } from 'codemirror-json-schema';
import type { JSONSchema7 } from 'json-schema';
import { useEffect, useRef } from 'react';
import schemaJson from '../../../scenarios/scenario.schema.json';
import type { EditorIssue } from './issues';
import { issueSegments, locatePath } from './json-locate';
import { placeholderCompletion } from './placeholder-complete';

// The code view: CodeMirror 6 with completion and hover docs from the published scenario JSON Schema
// (codemirror-json-schema) and of {{placeholders}} inside strings, and the engine's own validation issues as inline markers, each at the
// field its path names. The engine is the one validator, so the form, the code view and a run agree.

// The generated file is a JSON Schema by construction (a test checks it equals what zod writes).
const schema = schemaJson as unknown as JSONSchema7;

/** A problem picked in the list: the cursor goes to it (seq tells two clicks on the same one apart). */
export interface JumpRequest {
  issue: EditorIssue;
  seq: number;
}

const issueRange = (state: EditorState, i: EditorIssue) => (i.line !== undefined ? positionOf(state, i.line, i.column ?? 1) : locatePath(state, issueSegments(i)));

export function CodeView({ text, onChange, issues, jump }: { text: string; onChange: (text: string) => void; issues: readonly EditorIssue[] | null; jump?: JumpRequest | null }) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;

  useEffect(() => {
    if (!host.current) return;
    const v = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: text,
        extensions: [
          lineNumbers(),
          foldGutter(),
          lintGutter(),
          history(),
          bracketMatching(),
          closeBrackets(),
          highlightActiveLine(),
          autocompletion(),
          keymap.of([...defaultKeymap, ...historyKeymap]),
          json(),
          jsonLanguage.data.of({ autocomplete: jsonCompletion() }),
          jsonLanguage.data.of({ autocomplete: placeholderCompletion }),
          hoverTooltip(jsonSchemaHover()),
          stateExtensions(schema),
          oneDark,
          EditorView.contentAttributes.of({ 'aria-label': 'scenario JSON', 'data-testid': 'code-editor' }),
          EditorView.updateListener.of((u) => {
            if (u.docChanged) onChangeRef.current(u.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = v;
    return () => {
      v.destroy();
      view.current = null;
    };
    // created once; later text comes in through the effect below
  }, []);

  // A change from the form (or a newly opened scenario) replaces the text.
  useEffect(() => {
    const v = view.current;
    if (v && v.state.doc.toString() !== text) v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: text } });
  }, [text]);

  useEffect(() => {
    const v = view.current;
    if (!v) return;
    const diagnostics: Diagnostic[] = (issues ?? []).map((i) => ({ ...issueRange(v.state, i), severity: 'error', message: `${i.path}: ${i.message}`, source: 'loadscope' }));
    v.dispatch(setDiagnostics(v.state, diagnostics));
  }, [issues, text]);

  useEffect(() => {
    const v = view.current;
    if (!v || !jump) return;
    const { from } = issueRange(v.state, jump.issue);
    v.dispatch({ selection: { anchor: from }, scrollIntoView: true });
    v.focus();
  }, [jump]);

  return <div className="code-view" ref={host} />;
}

function positionOf(state: EditorState, line: number, column: number): { from: number; to: number } {
  const l = state.doc.line(Math.min(Math.max(1, line), state.doc.lines));
  const from = Math.min(l.from + column - 1, l.to);
  return { from, to: Math.min(from + 1, state.doc.length) };
}
