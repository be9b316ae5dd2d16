import { formatMoney, readShowtimeClash } from '@cinema/contract/constants';
import { useId, useState, type FormEvent } from 'react';
import { ApiError, errorText } from '../../../lib/api-client';
import { formatDateTime, formatTime } from '../../../lib/format';
import { useCreateShowtime } from '../api/create-showtime';
import { useAdminMovies } from '../api/get-admin-movies';
import { useHalls } from '../api/get-halls';
import { useShowtimePriceCards } from '../api/get-price-cards';
import { localDateTimeToUtcIso, priceCentsFromDollars, utcIsoToLocalDateTime } from '../lib/showtime-input';
import { FormMessages } from '../../../components/ui/form-messages';

/** The server names the clashing showtime in UTC; say it in the viewer's own time instead. */
function showtimeError(err: unknown): string {
  if (err instanceof ApiError && err.code === 'showtime_overlap') {
    const clash = readShowtimeClash(err.body);
    if (clash) {
      return `${clash.auditorium} is busy: it overlaps “${clash.movie}” at ${formatDateTime(clash.startsAt)} (until ${formatTime(clash.endsAt)}, cleaning included)`;
    }
  }
  return errorText(err, 'Failed to create showtime');
}

/** Add Showtime: movie, hall and local start time required; the price defaults to $12.00. */
export function AddShowtimeForm() {
  const movies = useAdminMovies();
  const halls = useHalls();
  const create = useCreateShowtime();
  const [movieId, setMovieId] = useState('');
  const [auditoriumId, setAuditoriumId] = useState('');
  const [start, setStart] = useState('');
  const [price, setPrice] = useState('12.00');
  const cards = useShowtimePriceCards();
  /** '' : the card whose days and hours hold the start (decided by the server when it prices a seat). */
  const [priceCardId, setPriceCardId] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const id = useId();

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    setNotice(null);
    const startsAt = localDateTimeToUtcIso(start);
    if (!startsAt) {
      setError('Enter a valid start date and time');
      return;
    }
    try {
      const created = await create.mutateAsync({
        movieId,
        auditoriumId,
        startsAt,
        priceCents: priceCentsFromDollars(price),
        ...(priceCardId && { priceCardId }),
      });
      const card = cards.data?.find((c) => c.id === priceCardId);
      setNotice(
        `Showtime added: ${formatDateTime(created.startsAt)} in ${created.auditorium}, ${card ? `${card.name} prices` : formatMoney(created.priceCents)}.`,
      );
      setStart('');
    } catch (err) {
      setError(showtimeError(err));
    }
  }

  const loadError = movies.error ?? halls.error;
  return (
    <form onSubmit={onSubmit} className="card space-y-4" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="text-lg font-semibold text-white">
        Add Showtime
      </h2>
      {loadError && (
        <p className="error" role="alert">
          {errorText(loadError, 'Failed to load movies')}
        </p>
      )}
      <div className="grid gap-4 sm:grid-cols-2">
        <label className="field">
          <span className="field-label">Movie</span>
          <select
            className="input"
            name="movieId"
            value={movieId}
            onChange={(e) => setMovieId(e.target.value)}
            required
          >
            <option value="">Choose a movie</option>
            {movies.data?.map((m) => (
              <option key={m.id} value={m.id}>
                {m.title}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span className="field-label">Hall</span>
          <select
            className="input"
            name="auditoriumId"
            value={auditoriumId}
            onChange={(e) => setAuditoriumId(e.target.value)}
            required
          >
            <option value="">Choose a hall</option>
            {halls.data?.map((h) => (
              <option key={h.id} value={h.id}>
                {h.name} ({h.seatCount ?? h.rows * h.cols} seats)
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span className="field-label">Starts at (your local time)</span>
          <input
            className="input"
            name="startsAt"
            type="datetime-local"
            value={start}
            min={utcIsoToLocalDateTime(new Date().toISOString())}
            onChange={(e) => setStart(e.target.value)}
            required
          />
        </label>
        <label className="field">
          <span className="field-label">Price ($)</span>
          <input
            className="input"
            name="price"
            type="number"
            inputMode="decimal"
            min={0.01}
            max={1000}
            step={0.01}
            value={price}
            onChange={(e) => setPrice(e.target.value)}
            aria-describedby={`${id}-price-hint`}
          />
          <span id={`${id}-price-hint`} className="text-xs text-muted">
            Every seat’s price when no price card applies
          </span>
        </label>
        <label className="field">
          <span className="field-label">Price card</span>
          <select
            className="input"
            name="priceCardId"
            value={priceCardId}
            onChange={(e) => setPriceCardId(e.target.value)}
          >
            <option value="">The card valid at its start</option>
            {cards.data?.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </label>
      </div>
      <FormMessages error={error} notice={notice} />
      <button
        type="submit"
        className="btn-primary"
        disabled={create.isPending || !movieId || !auditoriumId || !start}
      >
        {create.isPending ? 'Saving…' : 'Add showtime'}
      </button>
    </form>
  );
}
