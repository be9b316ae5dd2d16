import type { SeatType } from '@cinema/contract';
import { seatLook, SeatMark } from './seat-face';
import type { SeatView } from './seat-view';

const statuses: [SeatView, string][] = [
  ['AVAILABLE', 'Available'],
  ['SELECTED', 'Selected'],
  ['MINE', 'Held by you'],
  ['HELD', 'Held'],
  ['CONFIRMED', 'Sold'],
  ['BLOCKED', 'Not for sale online'],
];

const typeNames: [SeatType, string][] = [
  ['PREMIUM', 'Premium seat'],
  ['SOFA', 'Sofa for two, sold whole'],
  ['WHEELCHAIR', 'Wheelchair space'],
  ['COMPANION', 'Companion seat, with a wheelchair space'],
];

const item = 'flex items-center gap-2';

/** What the seats' looks mean: each state, and each seat type this hall has (and only those). */
export function SeatLegend({ types, blocked }: { types: ReadonlySet<SeatType>; blocked: boolean }) {
  const present = typeNames.filter(([type]) => types.has(type));
  return (
    <div className="flex flex-col items-center gap-3 text-sm text-slate-300" data-testid="seat-legend">
      <ul aria-label="Legend" className="flex flex-wrap justify-center gap-x-5 gap-y-2">
        {statuses
          .filter(([view]) => view !== 'BLOCKED' || blocked)
          .map(([view, label]) => (
            <li key={view} className={item}>
              <span aria-hidden className={seatLook('STANDARD', view)}>
                <SeatMark type="STANDARD" view={view} />
              </span>
              {label}
            </li>
          ))}
      </ul>
      {present.length > 0 && (
        <ul aria-label="Seat types" className="flex flex-wrap justify-center gap-x-5 gap-y-2">
          {present.map(([type, label]) => (
            <li key={type} className={item}>
              {type === 'SOFA' ? (
                <span aria-hidden className="flex gap-1.5">
                  <span className={seatLook(type, 'AVAILABLE', 'left')} />
                  <span className={seatLook(type, 'AVAILABLE', 'right')} />
                </span>
              ) : (
                <span aria-hidden className={seatLook(type, 'AVAILABLE')}>
                  <SeatMark type={type} view="AVAILABLE" />
                </span>
              )}
              {label}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
