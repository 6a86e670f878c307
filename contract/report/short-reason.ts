// A server's failure reason as a report shows it: a few lines at most. A reason can carry the
// server's last output (the supervisor appends up to 12 lines), often a Node stack trace: the
// headline and the error's own line say what happened; the frames ("at ...") and the rest are cut,
// with "..." saying so. The full reason stays stored (`show --json`).

const MAX_LINE = 200;
const FRAME = /^at\s/;
const ERROR_LINE = /^([A-Z]\w*)?(Error|Exception)\b/;

const clip = (line: string): string => (line.length > MAX_LINE ? `${line.slice(0, MAX_LINE - 3)}...` : line);

/** At most `maxLines` lines of a reason: its first line, then the error's message line (or the first lines that are not stack frames). */
export function shortReason(reason: string, maxLines = 3): string[] {
  const lines = reason.split(/\r?\n/).map((l) => l.replace(/^\s*(\[stderr\]\s?)?/, '').trimEnd()).filter((l) => l !== '');
  if (lines.length === 0) return [];
  const [head, ...rest] = lines as [string, ...string[]];
  const error = rest.find((l) => ERROR_LINE.test(l));
  const picked = error !== undefined ? [head, error] : [head, ...rest.filter((l) => !FRAME.test(l)).slice(0, maxLines - 1)];
  const shown = picked.slice(0, maxLines).map(clip);
  if (shown.length < lines.length) shown[shown.length - 1] = `${shown[shown.length - 1]} ...`;
  return shown;
}
