import { useId, useState, type FormEvent } from 'react';
import { MAX_SEATS_PER_HOLD } from '@cinema/contract/constants';
import { ApiError, errorText } from '../../../lib/api-client';
import { useFindBestSeats } from '../api/find-best-seats';
import { SeatCountFields } from './seat-count-fields';
import { useTranslation } from '../../../lib/i18n';
import { i18n } from '../../../lib/i18n';

function notFoundText(count: number, wheelchair: boolean): string {
  if (count === 1) return i18n.t(wheelchair ? 'common:findSeats.noWheelchair' : 'common:findSeats.noSeat');
  return i18n.t(wheelchair ? 'common:findSeats.noneTogetherWheelchair' : 'common:findSeats.noneTogether', {
    count,
  });
}

/**
 * "Find me N seats": asks the server for the best seats side by side and selects them; the customer still presses
 * Hold seats. With a wheelchair space: a space and, for more than one, companion seats beside it.
 */
export function FindSeatsForm({
  showtimeId,
  onFound,
}: {
  showtimeId: string;
  onFound: (seatIds: string[]) => void;
}) {
  const { t } = useTranslation('common');
  const find = useFindBestSeats(showtimeId);
  const [count, setCount] = useState('2');
  const [wheelchair, setWheelchair] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const n = Math.min(MAX_SEATS_PER_HOLD, Math.max(1, Math.trunc(Number(count)) || 1));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    find.mutate(
      { count: n, ...(wheelchair && { type: 'WHEELCHAIR' as const }) },
      {
        onSuccess: (found) => onFound(found.seatIds),
        onError: (err) =>
          setError(
            err instanceof ApiError && err.code === 'no_seats_together'
              ? notFoundText(n, wheelchair)
              : errorText(err, t('findSeats.failed')),
          ),
      },
    );
  };

  return (
    <form onSubmit={submit} aria-labelledby={`${id}-title`} className="flex flex-col gap-2">
      <h2 id={`${id}-title`} className="sr-only">
        {t('findSeats.title')}
      </h2>
      <div className="flex flex-wrap items-end gap-x-4 gap-y-3">
        <SeatCountFields
          label={t('findSeats.count')}
          count={count}
          onCount={setCount}
          wheelchair={wheelchair}
          onWheelchair={setWheelchair}
        />
        <button type="submit" className="btn-secondary min-h-10" disabled={find.isPending}>
          {find.isPending ? t('findSeats.finding') : t('findSeats.submit', { count: n })}
        </button>
      </div>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
