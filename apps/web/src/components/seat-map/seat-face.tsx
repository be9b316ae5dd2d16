import type { ReactNode } from 'react';
import type { SeatType } from '@cinema/contract';
import type { SeatView } from './seat-view';

// How a seat looks: its type by shape and icon (a wheelchair space is square with a wheelchair, a companion seat
// round, a premium seat starred, a sofa two seats joined), its state by colour and mark (sold struck through, not
// for sale crossed out). Never colour alone.

const shapes: Record<SeatType, string> = {
  STANDARD: 'rounded-t-lg rounded-b-sm',
  PREMIUM: 'rounded-t-lg rounded-b-sm',
  SOFA: 'rounded-t-lg rounded-b-sm',
  WHEELCHAIR: 'rounded-sm',
  COMPANION: 'rounded-full',
};

/** A type's own tint while the seat can still be chosen. */
const tints: Record<SeatType, string> = {
  STANDARD: 'border-slate-400 bg-panel-2 text-slate-100',
  PREMIUM: 'border-violet-300 bg-violet-950 text-violet-50',
  SOFA: 'border-emerald-300 bg-emerald-950 text-emerald-50',
  WHEELCHAIR: 'border-sky-300 bg-sky-950 text-sky-50',
  COMPANION: 'border-sky-300 bg-sky-950 text-sky-50',
};

const states: Record<Exclude<SeatView, 'AVAILABLE'>, string> = {
  SELECTED: 'border-gold bg-gold text-ink font-bold',
  HELD: 'border-slate-600 bg-slate-700 text-slate-300 cursor-not-allowed',
  MINE: 'border-rose-300 bg-accent-strong text-white font-bold',
  CONFIRMED: 'border-red-900 bg-red-950 text-red-200 line-through cursor-not-allowed',
  BLOCKED: 'border-dashed border-slate-500 bg-ink text-slate-400 cursor-not-allowed',
};

/** Which half of a sofa a seat is: the two halves meet across the grid's gap. */
export type SofaHalf = 'left' | 'right';
const halves: Record<SofaHalf, string> = {
  left: 'w-[calc(var(--seat)+var(--seat-gap)/2)] mr-[calc(var(--seat-gap)/-2)] rounded-r-none',
  right: 'w-[calc(var(--seat)+var(--seat-gap)/2)] ml-[calc(var(--seat-gap)/-2)] rounded-l-none',
};

/** The classes of a seat of this type in this state (a sofa half joined to its partner). */
export function seatLook(type: SeatType, view: SeatView, half?: SofaHalf): string {
  const colour = view === 'AVAILABLE' ? `${tints[type]} hover:border-gold hover:bg-line` : states[view];
  // The side follows the seat map's zoom (--seat, 28 px unless zoomed), the number with it.
  return `relative grid h-(--seat) shrink-0 place-items-center border text-[calc(var(--seat)*0.39)] leading-none transition-colors ${
    shapes[type]
  } ${half ? halves[half] : 'w-(--seat)'} ${colour}`;
}

/** A line drawing in the seat's text colour. */
function Icon({ className, children }: { className: string; children: ReactNode }) {
  return (
    <svg
      aria-hidden
      viewBox="0 0 24 24"
      className={`pointer-events-none fill-none stroke-current ${className}`}
      strokeWidth={2.25}
      strokeLinecap="round"
    >
      {children}
    </svg>
  );
}

/** What a seat shows: its number, or a wheelchair for a space, a cross when it is not for sale; a star if premium. */
export function SeatMark({ type, view, number }: { type: SeatType; view: SeatView; number?: number }) {
  if (view === 'BLOCKED') {
    return (
      <Icon className="h-[57%] w-[57%]">
        <path d="M6 6l12 12M18 6 6 18" />
      </Icon>
    );
  }
  if (type === 'WHEELCHAIR') {
    return (
      <Icon className="h-[72%] w-[72%]">
        <circle cx="10" cy="3.5" r="1.8" className="fill-current stroke-none" />
        <path d="M10 7v6h6l2.5 6M10 10h5" />
        <path d="M7 11.3a5.5 5.5 0 1 0 8.3 6.2" />
      </Icon>
    );
  }
  return (
    <>
      {number}
      {type === 'PREMIUM' && (
        <svg
          aria-hidden
          viewBox="0 0 24 24"
          className="pointer-events-none absolute -top-1.5 right-[-5px] h-3 w-3"
        >
          <path
            d="M12 2l3 7h7l-5.5 4.5 2 7.5-6.5-4.5L5.5 21l2-7.5L2 9h7z"
            className="fill-violet-300 stroke-ink"
            strokeWidth={1.5}
          />
        </svg>
      )}
    </>
  );
}
