import {
  DEFAULT_PRICE_CENTS,
  MAX_PRICE_CENTS,
  minorToText,
  readShowtimeClash,
} from '@cinema/contract/constants';
import type { TFunction } from '../../../lib/i18n';
import { useId, useState, type FormEvent } from 'react';
import { AttributesField } from './attributes-field';
import { useTranslation } from '../../../lib/i18n';
import { ApiError, errorText } from '../../../lib/api-client';
import {
  currencySymbol,
  formatDateTime,
  formatMoney,
  formatTime,
  moneyFieldProps,
} from '../../../lib/format';
import { useCinemaCurrency } from '../../../lib/settings';
import { useCreateShowtime } from '../api/create-showtime';
import { useAdminMovies } from '../api/get-admin-movies';
import { useHalls } from '../api/get-halls';
import { useShowtimePriceCards } from '../api/get-price-cards';
import { getShowtimePrices } from '../api/get-showtime-prices';
import { localDateTimeToUtcIso, priceCentsFromText, utcIsoToLocalDateTime } from '../lib/showtime-input';
import { FormMessages } from '../../../components/ui/form-messages';

/** The server names the clashing showtime in UTC; say it in the viewer's own time instead. */
function showtimeError(err: unknown, t: TFunction<'admin'>): string {
  if (err instanceof ApiError && err.code === 'showtime_overlap') {
    const clash = readShowtimeClash(err.body);
    if (clash) {
      return t('addShowtime.overlap', {
        hall: clash.auditorium,
        movie: clash.movie,
        startsAt: formatDateTime(clash.startsAt),
        endsAt: formatTime(clash.endsAt),
      });
    }
  }
  return errorText(err, t('addShowtime.failed'));
}

/** Add Showtime: movie, hall and local start time required; the price defaults to 1200 minor units ($12.00, ¥1,200). */
export function AddShowtimeForm() {
  const { t } = useTranslation('admin');
  const movies = useAdminMovies();
  const halls = useHalls();
  const create = useCreateShowtime();
  const [movieId, setMovieId] = useState('');
  const [auditoriumId, setAuditoriumId] = useState('');
  const [start, setStart] = useState('');
  const currency = useCinemaCurrency();
  /** null until staff type: the default price, in the cinema's currency once the settings arrived. */
  const [typedPrice, setPrice] = useState<string | null>(null);
  const price = typedPrice ?? minorToText(DEFAULT_PRICE_CENTS, currency);
  const cards = useShowtimePriceCards();
  /** '' : the card whose days and hours hold the start (decided by the server when it prices a seat). */
  const [priceCardId, setPriceCardId] = useState('');
  const [attributes, setAttributes] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const id = useId();

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    setNotice(null);
    const startsAt = localDateTimeToUtcIso(start);
    if (!startsAt) {
      setError(t('addShowtime.invalidStart'));
      return;
    }
    try {
      const created = await create.mutateAsync({
        movieId,
        auditoriumId,
        startsAt,
        priceCents: priceCentsFromText(price, currency),
        ...(priceCardId && { priceCardId }),
        ...(attributes.length > 0 && { attributes }),
      });
      // With "the card valid at its start", a card may still price it: say which, not a price nobody pays.
      const card = priceCardId
        ? cards.data?.find((c) => c.id === priceCardId)
        : await getShowtimePrices(created.id).then(
            (prices) => prices.priceCard,
            () => null,
          );
      const at = formatDateTime(created.startsAt);
      setNotice(
        card
          ? t('addShowtime.addedWithCard', { startsAt: at, hall: created.auditorium, card: card.name })
          : t('addShowtime.added', {
              startsAt: at,
              hall: created.auditorium,
              price: formatMoney(created.priceCents),
            }),
      );
      setStart('');
    } catch (err) {
      setError(showtimeError(err, t));
    }
  }

  const loadError = movies.error ?? halls.error;
  return (
    <form onSubmit={onSubmit} className="card space-y-4" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="text-lg font-semibold text-white">
        {t('addShowtime.title')}
      </h2>
      {loadError && (
        <p className="error" role="alert">
          {errorText(loadError, t('common.failedMovies'))}
        </p>
      )}
      <div className="grid gap-4 sm:grid-cols-2">
        <label className="field">
          <span className="field-label">{t('common.movie')}</span>
          <select
            className="input"
            name="movieId"
            value={movieId}
            onChange={(e) => setMovieId(e.target.value)}
            required
          >
            <option value="">{t('common.chooseMovie')}</option>
            {movies.data?.map((m) => (
              <option key={m.id} value={m.id}>
                {m.title}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span className="field-label">{t('common.hall')}</span>
          <select
            className="input"
            name="auditoriumId"
            value={auditoriumId}
            onChange={(e) => setAuditoriumId(e.target.value)}
            required
          >
            <option value="">{t('addShowtime.chooseHall')}</option>
            {halls.data?.map((h) => (
              <option key={h.id} value={h.id}>
                {t('common.hallSeats', { name: h.name, count: h.seatCount ?? h.rows * h.cols })}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span className="field-label">{t('addShowtime.startsAt')}</span>
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
          <span className="field-label">{t('addShowtime.price', { currency: currencySymbol() })}</span>
          <input
            className="input"
            name="price"
            type="number"
            inputMode="decimal"
            {...moneyFieldProps(MAX_PRICE_CENTS, currency)}
            value={price}
            onChange={(e) => setPrice(e.target.value)}
            aria-describedby={`${id}-price-hint`}
          />
          <span id={`${id}-price-hint`} className="text-xs text-muted">
            {t('addShowtime.priceHint')}
          </span>
        </label>
        <label className="field">
          <span className="field-label">{t('addShowtime.priceCard')}</span>
          <select
            className="input"
            name="priceCardId"
            value={priceCardId}
            onChange={(e) => setPriceCardId(e.target.value)}
          >
            <option value="">{t('addShowtime.cardAtStart')}</option>
            {cards.data?.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </label>
      </div>
      <AttributesField value={attributes} onChange={setAttributes} />
      <FormMessages error={error} notice={notice} />
      <button
        type="submit"
        className="btn-primary"
        disabled={create.isPending || !movieId || !auditoriumId || !start}
      >
        {create.isPending ? t('common.saving') : t('addShowtime.submit')}
      </button>
    </form>
  );
}
