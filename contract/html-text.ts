// HTML's one escaper: a user's string (a label, a name, a reason) placed in HTML text or a quoted
// attribute is text, never markup. The HTML reports (engine/export) and the charts' tooltips, which
// ECharts inserts as markup (renderer/charts), both ask it.

/** `value` as HTML shows it literally: & < > " ' as numeric entities. */
export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
