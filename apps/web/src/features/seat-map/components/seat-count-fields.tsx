import { MAX_SEATS_PER_HOLD } from '@cinema/contract/constants';
import { useTranslation } from '../../../lib/i18n';

/** How many seats (1 to a hold's ten) and whether one is a wheelchair space: "Find me N seats" and the waiting list. */
export function SeatCountFields({
  label,
  name,
  count,
  onCount,
  wheelchair,
  onWheelchair,
}: {
  label: string;
  /** The fields' names: `name` and `name-wheelchair` (`count` and `wheelchair` when absent). */
  name?: string;
  count: string;
  onCount: (count: string) => void;
  wheelchair: boolean;
  onWheelchair: (wheelchair: boolean) => void;
}) {
  const { t } = useTranslation('common');
  return (
    <>
      <label className="field">
        <span className="field-label">{label}</span>
        <input
          className="input w-20"
          type="number"
          name={name ?? 'count'}
          inputMode="numeric"
          min={1}
          max={MAX_SEATS_PER_HOLD}
          required
          value={count}
          onChange={(e) => onCount(e.target.value)}
        />
      </label>
      <label className="flex min-h-10 items-center gap-2 text-sm text-slate-200">
        <input
          type="checkbox"
          name={name ? `${name}-wheelchair` : 'wheelchair'}
          className="h-4 w-4 accent-gold"
          checked={wheelchair}
          onChange={(e) => onWheelchair(e.target.checked)}
        />
        {t('findSeats.wheelchair')}
      </label>
    </>
  );
}
