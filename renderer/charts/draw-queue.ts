// Chart draws spread over animation frames. A view redraws several charts at once (the live view
// five, four times a second); drawn in one frame they made that frame long (docs/performance.md,
// "The live view while a run streams"). Queued here, a frame draws charts until FRAME_BUDGET_MS is
// spent (at least one), and the rest wait for the next frame. A chart queued again before it was
// drawn keeps only its latest draw.

/** A frame's drawing time: past this, the next chart waits a frame (one draw's cost: docs/performance.md, "The live view while a run streams"). */
export const FRAME_BUDGET_MS = 4;

/** bench/ui-live.mjs sets this array on the page to read each draw's cost (label, ms). */
const drawTimes = (globalThis as { __loadscopeDrawTimes?: [string, number][] }).__loadscopeDrawTimes;
const pending = new Map<object, () => void>();
let frame = 0;

function drawSome(): void {
  frame = 0;
  const start = performance.now();
  for (const [key, draw] of pending) {
    pending.delete(key);
    const at = performance.now();
    draw();
    drawTimes?.push([key instanceof HTMLElement ? (key.dataset.testid ?? key.getAttribute('aria-label') ?? '') : '', performance.now() - at]);
    if (performance.now() - start >= FRAME_BUDGET_MS) break;
  }
  if (pending.size > 0) frame = requestAnimationFrame(drawSome);
}

/** Draw `draw` for `key` in a coming animation frame (replacing any draw of `key` still queued). */
export function queueDraw(key: object, draw: () => void): void {
  pending.delete(key); // re-queued at the back: charts take turns
  pending.set(key, draw);
  if (frame === 0) frame = requestAnimationFrame(drawSome);
}

/** Forget `key`'s queued draw (its chart is going away). */
export function dropDraw(key: object): void {
  pending.delete(key);
}
