import { useId, useState, type FormEvent } from 'react';
import { attributeText } from '../../../components/ui/attribute-badges';
import { useTranslation } from '../../../lib/i18n';
import type { PriceCard, TicketType } from '@cinema/contract';
import { MAX_PRICE_CENTS, SEAT_TYPES, SHOWTIME_ATTRIBUTES } from '@cinema/contract/constants';
import { FormMessages } from '../../../components/ui/form-messages';
import { errorText } from '../../../lib/api-client';
import { useSavePriceCard } from '../api/price-cards';
import { currencySymbol, moneyFieldProps } from '../../../lib/format';
import { useCinemaCurrency } from '../../../lib/settings';
import { bodyOf, draftOf, emptyDraft, priceKey, weekdays, type PriceCardDraft } from '../lib/price-card-form';

/**
 * A price card's form (a new card, or `card` edited): name, days, a window of the day in the cinema's time, and
 * a price for each ticket type on each seat type (blank: not sold there).
 */
export function PriceCardForm({
  card,
  ticketTypes,
  onDone,
}: {
  card?: PriceCard;
  ticketTypes: TicketType[];
  onDone: (notice: string) => void;
}) {
  const { t } = useTranslation('admin');
  const save = useSavePriceCard();
  const currency = useCinemaCurrency();
  const [draft, setDraft] = useState<PriceCardDraft>(() => (card ? draftOf(card, currency) : emptyDraft()));
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  // Inactive types stay on the card while it prices them; otherwise only the types sold are offered.
  const rows = ticketTypes.filter((t) => t.active || card?.prices.some((p) => p.ticketTypeId === t.id));
  const set = (change: Partial<PriceCardDraft>) => setDraft((d) => ({ ...d, ...change }));

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    const result = bodyOf(draft, currency);
    if ('error' in result) {
      setError(result.error);
      return;
    }
    save.mutate(
      { id: card?.id, body: result.body },
      {
        onSuccess: (saved) =>
          onDone(
            card ? t('priceCard.saved', { name: saved.name }) : t('priceCard.added', { name: saved.name }),
          ),
        onError: (err) => setError(errorText(err, t('priceCard.saveFailed'))),
      },
    );
  };

  const title = card ? t('priceCard.edit', { name: card.name }) : t('priceCard.new');
  return (
    <form onSubmit={onSubmit} className="card space-y-4" aria-labelledby={`${id}-title`} noValidate>
      <h2 id={`${id}-title`} className="text-lg font-semibold text-white">
        {title}
      </h2>
      <label className="field">
        <span className="field-label">{t('common.name')}</span>
        <input
          className="input"
          name="cardName"
          value={draft.name}
          maxLength={60}
          onChange={(e) => set({ name: e.target.value })}
          required
        />
      </label>
      <fieldset>
        <legend className="field-label mb-1 text-sm">{t('priceCard.days')}</legend>
        <div className="flex flex-wrap gap-x-4 gap-y-2">
          {weekdays().map((w) => (
            <label key={w.day} className="flex min-h-8 items-center gap-2 text-sm">
              <input
                type="checkbox"
                className="h-5 w-5"
                checked={draft.weekdays.includes(w.day)}
                onChange={(e) =>
                  set({
                    weekdays: e.target.checked
                      ? [...draft.weekdays, w.day]
                      : draft.weekdays.filter((d) => d !== w.day),
                  })
                }
              />
              <abbr title={w.name} className="no-underline">
                {w.short}
              </abbr>
            </label>
          ))}
        </div>
      </fieldset>
      <div className="grid gap-4 sm:grid-cols-2">
        <label className="field">
          <span className="field-label">{t('priceCard.from')}</span>
          <input
            className="input"
            type="time"
            name="from"
            value={draft.from}
            onChange={(e) => set({ from: e.target.value })}
            required
          />
        </label>
        <label className="field">
          <span className="field-label">{t('priceCard.until')}</span>
          <input
            className="input"
            type="time"
            name="to"
            value={draft.to === '24:00' ? '00:00' : draft.to}
            onChange={(e) => set({ to: e.target.value })}
            required
          />
        </label>
      </div>
      <label className="field max-w-xs">
        <span className="field-label">{t('attributes.attribute')}</span>
        <select
          className="input"
          name="attribute"
          value={draft.attribute}
          onChange={(e) => set({ attribute: e.target.value })}
        >
          <option value="">{t('attributes.anyShowtime')}</option>
          {SHOWTIME_ATTRIBUTES.map((a) => (
            <option key={a} value={a}>
              {attributeText(a)}
            </option>
          ))}
        </select>
      </label>
      <p id={`${id}-prices`} className="text-sm text-slate-300">
        {t('priceCard.pricesHint', { currency: currencySymbol() })}
      </p>
      <div className="overflow-x-auto">
        <table className="w-full text-left text-sm" aria-describedby={`${id}-prices`}>
          <caption className="sr-only">{t('priceCard.prices')}</caption>
          <thead className="text-slate-300">
            <tr>
              <th scope="col" className="py-2 pr-3 font-semibold">
                {t('priceCard.ticketType')}
              </th>
              {SEAT_TYPES.map((s) => (
                <th key={s} scope="col" className="px-1 py-2 font-semibold capitalize">
                  {t(`seatTypeShort.${s}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((type) => (
              <tr key={type.id}>
                <th scope="row" className="py-1 pr-3 font-medium whitespace-nowrap text-white">
                  {type.name}
                </th>
                {SEAT_TYPES.map((s) => {
                  const key = priceKey(type.id, s);
                  return (
                    <td key={s} className="px-1 py-1">
                      <input
                        className="input min-w-20 tabular-nums"
                        type="number"
                        inputMode="decimal"
                        {...moneyFieldProps(MAX_PRICE_CENTS, currency)}
                        min={0}
                        aria-label={t('priceCard.priceFor', { type: type.name, seat: t(`seatType.${s}`) })}
                        value={draft.prices[key] ?? ''}
                        onChange={(e) => set({ prices: { ...draft.prices, [key]: e.target.value } })}
                      />
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <FormMessages error={error} />
      <div className="flex flex-wrap gap-3">
        <button type="submit" className="btn-primary" disabled={save.isPending}>
          {save.isPending ? t('common.saving') : card ? t('priceCard.save') : t('priceCard.add')}
        </button>
        {card && (
          <button type="button" className="btn-secondary" onClick={() => onDone('')}>
            {t('priceCard.cancel')}
          </button>
        )}
      </div>
    </form>
  );
}
