import { useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import type { CheckoutBody, Fulfilment, ProductOrder } from '@cinema/contract';
import { FulfilmentChoice, SnackLines } from '../../../components/menu/basket-snacks';
import { SnackDialogButton } from '../../../components/menu/menu-chooser';
import { defaultTicketTypeOn, ticketTypesOn } from '@cinema/contract/constants';
import { useFormatMoney } from '../../../lib/format';
import { errorText } from '../../../lib/api-client';
import { seatWithType } from '../../../lib/seat-text';
import { useQuote, useShowtimePrices } from '../api/get-quote';
import { useTranslation } from '../../../lib/i18n';

// Loaded with the basket, once seats are held.
export { HoldCountdown } from './hold-countdown';

/** What the basket has chosen: each seat's ticket type, and the promo code when it applies. */
export type BasketChoice = Pick<CheckoutBody, 'tickets' | 'promoCode' | 'products' | 'fulfilment'>;

/**
 * The basket of held seats (loaded once the customer holds seats): a ticket type for each seat (the default, Adult,
 * to start with), each seat's price, the promo code's discount or why it does not apply, and the total: all as the
 * server quotes them, so what it shows is what Checkout charges.
 */
export function Basket({
  showtimeId,
  bookingIds,
  onChange,
}: {
  showtimeId: string;
  bookingIds: string[];
  onChange: (choice: BasketChoice) => void;
}) {
  const { t } = useTranslation('common');
  const formatMoney = useFormatMoney();
  const prices = useShowtimePrices(showtimeId);
  const [types, setTypes] = useState<Record<string, string>>({});
  const [code, setCode] = useState('');
  const [applied, setApplied] = useState<string | undefined>(undefined);
  const [chosen, setChosen] = useState<{ item: ProductOrder; text: string }[]>([]);
  const products = useMemo(() => chosen.map((c) => c.item), [chosen]);
  const [fulfilment, setFulfilment] = useState<Fulfilment>({ kind: 'PICKUP' });
  const id = useId();
  // A seat delivery names a seat still held.
  const delivery = useMemo(
    (): Fulfilment =>
      fulfilment.kind === 'SEAT' && !bookingIds.includes(fulfilment.bookingId)
        ? { kind: 'PICKUP' }
        : fulfilment,
    [fulfilment, bookingIds],
  );

  // Only the seats still held, and only the choices that differ from the default.
  const body = useMemo((): CheckoutBody => {
    const tickets = bookingIds.flatMap((b) => (types[b] ? [{ bookingId: b, ticketTypeId: types[b] }] : []));
    return {
      bookingIds,
      ...(tickets.length > 0 && { tickets }),
      ...(applied && { promoCode: applied }),
      ...(products.length > 0 && { products, fulfilment: delivery }),
    };
  }, [bookingIds, types, applied, products, delivery]);
  const quote = useQuote(body);
  const current = quote.data;
  const promoApplies = Boolean(current?.promo?.applied);

  useEffect(() => {
    onChange({
      tickets: body.tickets,
      promoCode: promoApplies ? body.promoCode : undefined,
      products: body.products,
      fulfilment: body.fulfilment,
    });
  }, [body, promoApplies, onChange]);

  const applyCode = (e: FormEvent) => {
    e.preventDefault();
    const trimmed = code.trim();
    setApplied(trimmed === '' ? undefined : trimmed);
  };

  return (
    <section className="flex flex-col gap-3" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="text-base font-semibold text-white">
        {t('basket.title')}
      </h2>
      {prices.data?.ageRule && (
        <p className="rounded-lg border border-amber-300/60 px-3 py-2 text-sm text-amber-100" data-age-rule>
          {t('basket.ageRule', { rating: prices.data.ageRule.rating, age: prices.data.ageRule.minAge })}
        </p>
      )}
      {quote.isError && (
        <p className="error" role="alert">
          {errorText(quote.error, t('basket.priceFailed'))}
        </p>
      )}
      {current && (
        <ul aria-label={t('basket.lines')} className="divide-y divide-line/60" aria-busy={quote.isFetching}>
          {current.lines.map((line) => {
            const seat = seatWithType(line.seat);
            const bookingId = line.bookingId ?? '';
            // Only the types sold on this seat's type: a price left blank on the card is not for sale there.
            const seatType = line.seat.type ?? 'STANDARD';
            const sold = prices.data ? ticketTypesOn(prices.data, seatType) : [];
            const defaultType = prices.data ? (defaultTicketTypeOn(prices.data, seatType) ?? '') : '';
            return (
              <li
                key={bookingId}
                className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 py-2"
              >
                <span className="font-semibold text-white">{seat}</span>
                <span className="flex items-center gap-3">
                  {sold.length > 0 ? (
                    <label className="flex items-center gap-2 text-sm">
                      <span className="sr-only">{t('basket.typeFor', { seat })}</span>
                      <select
                        className="input w-auto py-1.5"
                        value={types[bookingId] ?? defaultType}
                        onChange={(e) =>
                          setTypes((chosen) => ({
                            ...chosen,
                            [bookingId]: e.target.value,
                          }))
                        }
                      >
                        {sold.map((type) => (
                          <option key={type.id} value={type.id}>
                            {type.name}
                          </option>
                        ))}
                      </select>
                    </label>
                  ) : (
                    <span className="text-sm text-slate-300">{line.ticketType}</span>
                  )}
                  <span className="min-w-16 text-right tabular-nums">
                    {line.discountCents > 0 && (
                      <s
                        className="mr-1 text-xs text-muted"
                        aria-label={t('order.was', { amount: formatMoney(line.listPriceCents) })}
                      >
                        {formatMoney(line.listPriceCents)}
                      </s>
                    )}
                    {formatMoney(line.priceCents)}
                  </span>
                </span>
              </li>
            );
          })}
        </ul>
      )}
      <SnackLines
        items={chosen.map((c) => ({ text: c.text, quantity: c.item.quantity }))}
        prices={current?.products}
        onRemove={(i) => setChosen((all) => all.filter((_, j) => j !== i))}
      />
      <SnackDialogButton onAdd={(item, text) => setChosen((all) => [...all, { item, text }])} />
      {products.length > 0 && current && (
        <FulfilmentChoice
          seats={current.lines.map((l) => ({
            bookingId: l.bookingId ?? '',
            label: seatWithType(l.seat),
            startsAt: l.startsAt,
          }))}
          value={delivery}
          onChange={setFulfilment}
        />
      )}
      <form className="flex flex-wrap items-end gap-2" onSubmit={applyCode}>
        <label className="field min-w-36 flex-1">
          <span className="field-label">{t('basket.promo')}</span>
          <input
            className="input uppercase"
            name="promoCode"
            value={code}
            maxLength={40}
            autoComplete="off"
            aria-describedby={`${id}-promo`}
            onChange={(e) => setCode(e.target.value)}
          />
        </label>
        <button type="submit" className="btn-secondary" disabled={code.trim() === '' && !applied}>
          {code.trim() === '' && applied ? t('basket.removeCode') : t('basket.apply')}
        </button>
      </form>
      <div id={`${id}-promo`} aria-live="polite" className="text-sm">
        {current?.promo &&
          (current.promo.applied ? (
            <p className="text-emerald-300">
              {current.promo.code}: {t('tickets.off', { amount: formatMoney(current.discountCents) })}
            </p>
          ) : (
            <p className="text-amber-300">
              {t('basket.notApplied', {
                code: current.promo.code,
                reason: current.promo.reason ?? t('basket.cannotUse'),
              })}
            </p>
          ))}
      </div>
      {current && (
        <dl className="grid grid-cols-[1fr_auto] gap-x-4 text-sm tabular-nums" aria-live="polite">
          {current.discountCents > 0 && (
            <>
              <dt className="text-slate-300">{t('basket.subtotal')}</dt>
              <dd className="text-right">{formatMoney(current.subtotalCents)}</dd>
              <dt className="text-slate-300">{t('order.discount')}</dt>
              <dd className="text-right">−{formatMoney(current.discountCents)}</dd>
            </>
          )}
          <dt className="text-base font-semibold text-white">{t('order.total')}</dt>
          <dd className="text-right text-base font-semibold text-gold" data-testid="basket-total">
            {formatMoney(current.totalCents)}
          </dd>
        </dl>
      )}
    </section>
  );
}
