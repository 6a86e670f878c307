import { useLayoutEffect, type RefObject } from 'react';

// A wide table of figures fits its panel by shrinking its type, not by hiding columns behind a
// scroller: the phase table's 20 columns fit a 1024 px window with figures of four characters, but
// a run whose times reach thousands of ms (a loaded machine, a slow server) widens every column by
// one. The box sets --fit (1 = as styled), which the table's CSS multiplies its font sizes by.

/** How far the type may shrink; past it the box scrolls (widgets.css: .table-wrap overflows on x). */
const SMALLEST = 0.8;

/** Sets --fit on `ref`'s element so its content fits its width, again whenever its width or `deps` change. */
export function useFitWidth(ref: RefObject<HTMLElement | null>, deps: readonly unknown[]): void {
  useLayoutEffect(() => {
    const box = ref.current;
    if (box === null) return;
    let width = -1;
    const fit = (): void => {
      box.style.setProperty('--fit', '1');
      let scale = 1;
      // the type is not all of a column's width (padding is not scaled): a few passes close the gap
      for (let pass = 0; pass < 4 && box.scrollWidth > box.clientWidth + 1 && scale > SMALLEST; pass++) {
        scale = Math.max(SMALLEST, scale * (box.clientWidth / box.scrollWidth) * 0.99);
        box.style.setProperty('--fit', scale.toFixed(3));
      }
    };
    fit();
    width = box.clientWidth;
    // only a change of width refits: the refit changes the height, which must not call it again
    const observer = new ResizeObserver(() => {
      if (box.clientWidth === width) return;
      width = box.clientWidth;
      fit();
    });
    observer.observe(box);
    return () => observer.disconnect();
  }, deps);
}
