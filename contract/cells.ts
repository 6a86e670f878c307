import type { CellInfo } from './results.js';

// The one name of a server run in a matrix: "thread-pool - cores=1 - count=128". Chips, legends,
// tables, exports and the CLI all use it, so eight lines never share two legend names.

/** A cell's parameters as " - "-separated "key=value" parts ("" for the only cell of a plain scenario). */
export function cellParts(label: string): string {
  return label.split(', ').filter((s) => s !== '').join(' - ');
}

/** A server run's name: the server label, then its cell's parameters when the run has more than one cell. */
export function cellName(serverLabel: string, cells: readonly Pick<CellInfo, 'index' | 'label'>[], cellIndex: number): string {
  if (cells.length <= 1) return serverLabel;
  const cell = cells.find((c) => c.index === cellIndex);
  const parts = cell ? cellParts(cell.label) : `cell ${cellIndex + 1}`;
  return parts === '' ? serverLabel : `${serverLabel} - ${parts}`;
}
