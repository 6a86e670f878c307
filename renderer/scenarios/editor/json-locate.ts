import { json } from '@codemirror/lang-json';
import { ensureSyntaxTree, syntaxTree } from '@codemirror/language';
import { EditorState } from '@codemirror/state';
import type { SyntaxNode } from '@lezer/common';
import { parseDocPath, type Segment } from './doc-path';

// Where a validation issue's path (`phases[1].rate`) is in the code view's text: walk the JSON syntax
// tree down the path as far as it goes (a missing key marks its parent object), so every issue gets
// a marker on a real line.

const children = (node: SyntaxNode): SyntaxNode[] => {
  const out: SyntaxNode[] = [];
  for (let c = node.firstChild; c; c = c.nextSibling) out.push(c);
  return out;
};

const VALUE_NODES = new Set(['Object', 'Array', 'String', 'Number', 'True', 'False', 'Null']);

/**
 * The segments an issue points at: its path, and for an unknown key (reported on the object that
 * holds it) that key too, so the marker sits on the key, not on the enclosing `{`.
 */
export function issueSegments(issue: { path: string; message: string }): Segment[] {
  const segments = parseDocPath(issue.path);
  const unknown = /^unknown key ("(?:[^"\\]|\\.)*")/.exec(issue.message);
  if (unknown) {
    try {
      segments.push(JSON.parse(unknown[1]!) as string);
    } catch {
      // not a JSON string after all: the object is marked
    }
  }
  return segments;
}

/** The value node a path names, or null when the text has nothing there. */
export function valueNodeAt(state: EditorState, path: readonly Segment[]): SyntaxNode | null {
  const tree = ensureSyntaxTree(state, state.doc.length, 2000) ?? syntaxTree(state);
  let node: SyntaxNode | null = children(tree.topNode).find((c) => VALUE_NODES.has(c.name)) ?? null;
  for (const seg of path) {
    if (!node) return null;
    if (typeof seg === 'number') node = node.name === 'Array' ? (children(node).filter((c) => VALUE_NODES.has(c.name))[seg] ?? null) : null;
    else {
      const prop: SyntaxNode | undefined = node.name === 'Object' ? children(node).find((p) => p.name === 'Property' && propertyName(state, p) === seg) : undefined;
      node = prop ? (children(prop).find((c) => VALUE_NODES.has(c.name)) ?? null) : null;
    }
  }
  return node;
}

/** The path of the value at `node` (its enclosing properties and array items), outermost first. */
export function pathOfNode(state: EditorState, node: SyntaxNode): Segment[] {
  const path: Segment[] = [];
  for (let n: SyntaxNode | null = node; n?.parent; n = n.parent) {
    const parent: SyntaxNode = n.parent;
    if (parent.name === 'Property' && VALUE_NODES.has(n.name)) {
      const name = propertyName(state, parent);
      if (name !== null) path.unshift(name);
    } else if (parent.name === 'Array' && VALUE_NODES.has(n.name)) {
      // nodes are fresh objects on each walk: an item is known by where it starts
      path.unshift(children(parent).filter((c) => VALUE_NODES.has(c.name)).findIndex((c) => c.from === n.from));
    }
  }
  return path;
}

function propertyName(state: EditorState, prop: SyntaxNode): string | null {
  const name = prop.getChild('PropertyName');
  if (!name) return null;
  try {
    return JSON.parse(state.sliceDoc(name.from, name.to)) as string;
  } catch {
    return state.sliceDoc(name.from + 1, name.to - 1);
  }
}

export function locatePath(state: EditorState, path: string | readonly Segment[]): { from: number; to: number } {
  const tree = ensureSyntaxTree(state, state.doc.length, 2000) ?? syntaxTree(state);
  let node: SyntaxNode | null = children(tree.topNode).find((c) => VALUE_NODES.has(c.name)) ?? null;
  if (!node) return { from: 0, to: Math.min(1, state.doc.length) };
  let mark: { from: number; to: number } = { from: node.from, to: Math.min(node.to, node.from + 1) };
  for (const seg of typeof path === 'string' ? parseDocPath(path) : path) {
    let next: SyntaxNode | null = null;
    if (typeof seg === 'number' && node.name === 'Array') {
      next = children(node).filter((c) => VALUE_NODES.has(c.name))[seg] ?? null;
      if (next) mark = { from: next.from, to: next.to };
    } else if (typeof seg === 'string' && node.name === 'Object') {
      const prop: SyntaxNode | undefined = children(node).find((p) => {
        const name = p.getChild('PropertyName');
        return p.name === 'Property' && name !== null && state.sliceDoc(name.from + 1, name.to - 1) === seg;
      });
      const name = prop?.getChild('PropertyName');
      next = prop ? (children(prop).find((c) => VALUE_NODES.has(c.name)) ?? null) : null;
      if (name) mark = { from: name.from, to: next?.to ?? name.to };
    }
    if (!next) break;
    node = next;
  }
  // Keep a marker on one line: a whole object or array is marked at its first line.
  const line = state.doc.lineAt(mark.from);
  return { from: mark.from, to: Math.max(mark.from + 1, Math.min(mark.to, line.to)) };
}

/** The 1-based line of each issue in `text` (its own line for a JSON syntax error, else its path's). */
export function issueLines(text: string, issues: ReadonlyArray<{ path: string; message: string; line?: number }>): number[] {
  const state = EditorState.create({ doc: text, extensions: [json()] });
  return issues.map((i) => i.line ?? state.doc.lineAt(locatePath(state, issueSegments(i)).from).number);
}
