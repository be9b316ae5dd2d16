import type { SeatType } from '@cinema/contract';
import { seatLook, SeatMark } from './seat-face';
import type { SeatView } from './seat-view';
import { useTranslation } from '../../lib/i18n';

// Each is seat.legend.<view> and seat.legendTypes.<type> in the catalogue.
const statuses: SeatView[] = ['AVAILABLE', 'SELECTED', 'MINE', 'HELD', 'CONFIRMED', 'BLOCKED'];
const typeNames: SeatType[] = ['PREMIUM', 'SOFA', 'WHEELCHAIR', 'COMPANION'];

const item = 'flex items-center gap-2';

/** What the seats' looks mean: each state, and each seat type this hall has (and only those). */
export function SeatLegend({
  types,
  blocked,
  note,
}: {
  types: ReadonlySet<SeatType>;
  blocked: boolean;
  /** A word on the seat types below (when wheelchair spaces and companion seats go on sale to everyone). */
  note?: string | undefined;
}) {
  const { t } = useTranslation('common');
  const present = typeNames.filter((type) => types.has(type));
  return (
    <div className="flex flex-col items-center gap-3 text-sm text-slate-300" data-testid="seat-legend">
      <ul aria-label={t('seat.legendLabel')} className="flex flex-wrap justify-center gap-x-5 gap-y-2">
        {statuses
          .filter((view) => view !== 'BLOCKED' || blocked)
          .map((view) => (
            <li key={view} className={item}>
              <span aria-hidden className={seatLook('STANDARD', view)}>
                <SeatMark type="STANDARD" view={view} />
              </span>
              {t(`seat.legend.${view}`)}
            </li>
          ))}
      </ul>
      {present.length > 0 && (
        <ul aria-label={t('seat.typesLabel')} className="flex flex-wrap justify-center gap-x-5 gap-y-2">
          {present.map((type) => (
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
              {t(`seat.legendTypes.${type}`)}
            </li>
          ))}
        </ul>
      )}
      {note && (
        <p className="max-w-prose text-center text-xs text-slate-400" data-testid="accessible-note">
          {note}
        </p>
      )}
    </div>
  );
}
