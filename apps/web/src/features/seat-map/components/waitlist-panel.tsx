import { useId, useState, type FormEvent } from 'react';
import { MAX_SEATS_PER_HOLD } from '@cinema/contract/constants';
import { errorText } from '../../../lib/api-client';
import { formatTime } from '../../../lib/format';
import { useSettings } from '../../../lib/settings';
import { seatsInWords } from '../../../lib/seat-text';
import { useTranslation } from '../../../lib/i18n';
import { useMyWaitlist } from '../api/get-my-waitlist';
import { useJoinWaitlist } from '../api/join-waitlist';
import { useLeaveWaitlist } from '../api/leave-waitlist';
import { SeatCountFields } from './seat-count-fields';
import { WaitlistPlaceholder } from './waitlist-placeholder';

/**
 * The showtime's waiting list on the seat map (DESIGN §7.6): seats held for this customer ("These seats are held for
 * you until 20:41", by the cinema's clock) with Decline; their place in line with Leave; else the form to join,
 * open at once when the showtime is sold out and behind "Can't find the seats you want?" otherwise.
 */
export function WaitlistPanel({ showtimeId, soldOut }: { showtimeId: string; soldOut: boolean }) {
  const { t } = useTranslation('common');
  const settings = useSettings();
  const mine = useMyWaitlist(true);
  const join = useJoinWaitlist(showtimeId);
  const leave = useLeaveWaitlist(showtimeId);
  const [count, setCount] = useState('2');
  const [together, setTogether] = useState(true);
  const [wheelchair, setWheelchair] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const id = useId();

  const entry = mine.data?.entries.find(
    (e) => e.showtime.id === showtimeId && (e.status === 'waiting' || e.status === 'offered'),
  );
  const offer = entry?.status === 'offered' && entry.offer?.status === 'open' ? entry.offer : null;
  const clock = (iso: string) => formatTime(iso, settings?.timeZone ? { timeZone: settings.timeZone } : {});
  const n = Math.min(MAX_SEATS_PER_HOLD, Math.max(1, Math.trunc(Number(count)) || 1));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    join.mutate(
      { count: n, together, ...(wheelchair && { type: 'WHEELCHAIR' as const }) },
      { onError: (err) => setError(errorText(err, t('waitlist.joinFailed'))) },
    );
  };
  const decline = () => {
    setError(null);
    leave.mutate(undefined, { onError: (err) => setError(errorText(err, t('waitlist.leaveFailed'))) });
  };

  /** Decline an offer or leave the line: the same call, and what went wrong under it. */
  const leaveButton = (label: string) => (
    <>
      <button type="button" className="btn-secondary mt-3" disabled={leave.isPending} onClick={decline}>
        {label}
      </button>
      {error && (
        <p className="error mt-2" role="alert">
          {error}
        </p>
      )}
    </>
  );

  if (mine.isPending) return <WaitlistPlaceholder />;

  if (offer) {
    return (
      <section className="card border-gold" aria-labelledby={`${id}-offer`} id="waitlist">
        <h2 id={`${id}-offer`} className="text-lg font-semibold text-white">
          {t('waitlist.offerTitle')}
        </h2>
        <p className="notice mt-2" role="status">
          {t('waitlist.heldForYou', { time: clock(offer.expiresAt) })}
        </p>
        <p className="mt-2 text-slate-200">
          {seatsInWords(offer.seats.map((s) => ({ row: s.row, number: s.number, rowLabel: s.rowLabel })))}
        </p>
        <p className="mt-1 text-sm text-muted">{t('waitlist.payOrDecline')}</p>
        {leaveButton(t('waitlist.decline'))}
      </section>
    );
  }

  if (entry) {
    return (
      <section className="card" aria-labelledby={`${id}-line`} id="waitlist">
        <h2 id={`${id}-line`} className="text-lg font-semibold text-white">
          {t('waitlist.title')}
        </h2>
        <p className="mt-2 text-slate-200" role="status">
          {t('waitlist.inLine', { position: entry.position ?? 1, count: entry.count })}
        </p>
        <p className="mt-1 text-sm text-muted">{t('waitlist.weTellYou')}</p>
        {leaveButton(t('waitlist.leave'))}
      </section>
    );
  }

  const form = (
    <form onSubmit={submit} aria-labelledby={`${id}-join`} className="mt-2 flex flex-col gap-3">
      <p className="text-sm text-slate-200">{t('waitlist.explain')}</p>
      <div className="flex flex-wrap items-end gap-x-4 gap-y-3">
        <SeatCountFields
          label={t('waitlist.count')}
          name="waitlist-count"
          count={count}
          onCount={setCount}
          wheelchair={wheelchair}
          onWheelchair={setWheelchair}
        />
        <label className="flex min-h-10 items-center gap-2 text-sm text-slate-200">
          <input
            type="checkbox"
            name="waitlist-together"
            className="h-4 w-4 accent-gold"
            checked={together}
            onChange={(e) => setTogether(e.target.checked)}
          />
          {t('waitlist.together')}
        </label>
        <button type="submit" className="btn-primary min-h-10" disabled={join.isPending}>
          {t('waitlist.join')}
        </button>
      </div>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </form>
  );

  return soldOut ? (
    <section className="card" id="waitlist">
      <h2 id={`${id}-join`} className="text-lg font-semibold text-white">
        {t('waitlist.soldOutTitle')}
      </h2>
      {form}
    </section>
  ) : (
    <details className="card" id="waitlist">
      <summary className="cursor-pointer font-semibold text-white">
        <h2 id={`${id}-join`} className="inline">
          {t('seatMap.waitlistNotFound')}
        </h2>
      </summary>
      {form}
    </details>
  );
}
