import { useLayoutEffect, useRef, useState } from 'react';

/** A row label's column, either side of the seats. */
const LABEL_PX = 20;
/** The sides a seat map zooms through, smallest first; the first zoomed-in one is at least 24 px (WCAG 2.5.8). */
const ZOOM_PX = [24, 28, 36, 44] as const;
const DEFAULT_PX = 28;
/** The space between seats at a side. */
export const gapFor = (seat: number) => (seat >= 24 ? 6 : seat >= 18 ? 4 : 3);

/** How wide a hall of `cols` columns is at a seat side, its row labels included. */
const widthAt = (cols: number, seat: number) => 2 * LABEL_PX + cols * seat + (cols + 1) * gapFor(seat);

/**
 * The seat map's zoom: the seat sides it offers for a box `width` px wide (the whole hall fitted when that is
 * smaller than 24 px, then 24, 28, 36 and 44 px), the one shown (28 px unless chosen) and whether the hall is wider
 * than its box. The box keeps the hall's point at its centre when the zoom changes, and starts centred on the hall.
 */
export function useSeatZoom(cols: number) {
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const [chosen, setChosen] = useState<number | null>(null);

  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    setWidth(el.clientWidth);
    if (typeof ResizeObserver === 'undefined') return; // (old browsers, jsdom: the first width stays)
    const observer = new ResizeObserver(() => setWidth(el.clientWidth));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  // The largest side under 24 px at which the whole hall fits (10 px at the least).
  let fit = 23;
  while (fit > 10 && widthAt(cols, fit) > width) fit--;
  const sides: number[] = width > 0 && widthAt(cols, 24) > width ? [fit, ...ZOOM_PX] : [...ZOOM_PX];
  const seat = chosen !== null && sides.includes(chosen) ? chosen : DEFAULT_PX;
  const level = sides.indexOf(seat);
  const overflows = width > 0 && widthAt(cols, seat) > width;

  // Keep the middle of what was in view in the middle after a zoom; start on the middle of the hall.
  const middle = useRef<number | null>(null);
  useLayoutEffect(() => {
    const el = box.current;
    if (!el || width === 0) return;
    const ratio = middle.current ?? 0.5;
    el.scrollLeft = ratio * el.scrollWidth - el.clientWidth / 2;
  }, [seat, width]);

  const zoom = (step: 1 | -1) => {
    const el = box.current;
    if (el && el.scrollWidth > 0) middle.current = (el.scrollLeft + el.clientWidth / 2) / el.scrollWidth;
    const next = sides[Math.min(sides.length - 1, Math.max(0, level + step))];
    if (next !== undefined) setChosen(next);
  };

  return {
    box,
    seat,
    gap: gapFor(seat),
    label: LABEL_PX,
    overflows,
    canZoomIn: level < sides.length - 1,
    canZoomOut: level > 0,
    zoom,
  };
}
