import { useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import type { CheckoutBody, Fulfilment, ProductOrder } from '@cinema/contract';
import { FulfilmentChoice, SnackLines } from '../../../components/menu/basket-snacks';
import { SnackDialogButton } from '../../../components/menu/menu-chooser';
import { normalizeGiftCardCode } from '@cinema/contract/constants';
import { defaultTicketTypeOn, ticketTypesOn } from '@cinema/contract/constants';
import { useFormatMoney } from '../../../lib/format';
import { errorText } from '../../../lib/api-client';
import { seatWithType } from '../../../lib/seat-text';
import { useQuote, useShowtimePrices } from '../api/get-quote';
import { useTranslation } from '../../../lib/i18n';
import { feeLineName, OrderTaxes } from '../../../components/order/order-taxes';

// Loaded with the basket, once seats are held.
export { HoldCountdown } from './hold-countdown';

/** What the basket has chosen: each seat's ticket type, the promo code when it applies, snacks, the gift cards to pay with. */
export type BasketChoice = Pick<CheckoutBody, 'tickets' | 'promoCode' | 'products' | 'fulfilment' | 'redeem'>;

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
  const [cardCode, setCardCode] = useState('');
  const [cards, setCards] = useState<string[]>([]);
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
      ...(cards.length > 0 && { redeem: cards.map((code) => ({ code })) }),
    };
  }, [bookingIds, types, applied, products, delivery, cards]);
  const quote = useQuote(body);
  const current = quote.data;
  const promoApplies = Boolean(current?.promo?.applied);

  useEffect(() => {
    // Gift cards go to checkout only once the quote took them (an unknown or empty card is refused there).
    onChange({
      tickets: body.tickets,
      promoCode: promoApplies ? body.promoCode : undefined,
      products: body.products,
      fulfilment: body.fulfilment,
      redeem: quote.isSuccess ? body.redeem : undefined,
    });
  }, [body, promoApplies, onChange, quote.isSuccess]);

  const addCard = (e: FormEvent) => {
    e.preventDefault();
    const typed = cardCode.trim();
    if (typed === '' || cards.some((c) => normalizeGiftCardCode(c) === normalizeGiftCardCode(typed))) return;
    setCards((all) => [...all, typed]);
    setCardCode('');
  };

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
          {current.lines.map((line, i) => {
            if (line.kind === 'FEE') {
              return (
                <li key={`fee-${i}`} className="flex items-center justify-between gap-x-4 py-2" data-fee-line>
                  <span className="text-slate-200">{feeLineName(line, t)}</span>
                  <span className="min-w-16 text-right tabular-nums">{formatMoney(line.priceCents)}</span>
                </li>
              );
            }
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
          seats={current.lines
            .filter((l) => l.kind === 'TICKET')
            .map((l) => ({
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
      <form className="flex flex-wrap items-end gap-2" onSubmit={addCard}>
        <label className="field min-w-36 flex-1">
          <span className="field-label">{t('basket.giftCard')}</span>
          <input
            className="input uppercase"
            name="giftCardCode"
            value={cardCode}
            maxLength={40}
            autoComplete="off"
            placeholder="XXXX-XXXX-XXXX-XXXX"
            onChange={(e) => setCardCode(e.target.value)}
          />
        </label>
        <button type="submit" className="btn-secondary" disabled={cardCode.trim() === ''}>
          {t('basket.useGiftCard')}
        </button>
      </form>
      {cards.length > 0 && (
        <ul aria-label={t('basket.giftCards')} className="flex flex-col gap-1 text-sm">
          {cards.map((code) => {
            const use = current?.giftCards?.find(
              (g) => normalizeGiftCardCode(g.code) === normalizeGiftCardCode(code),
            );
            return (
              <li key={code} className="flex flex-wrap items-center justify-between gap-2">
                <span className="font-mono text-white">{use?.code ?? code.toUpperCase()}</span>
                <span className="flex items-center gap-3">
                  {use && (
                    <span className="tabular-nums text-emerald-300">
                      −{formatMoney(use.amountCents)}{' '}
                      <span className="text-muted">
                        ({t('basket.cardLeft', { amount: formatMoney(use.balanceAfterCents) })})
                      </span>
                    </span>
                  )}
                  <button
                    type="button"
                    className="text-sm text-slate-300 underline hover:text-white"
                    onClick={() => setCards((all) => all.filter((c) => c !== code))}
                  >
                    {t('basket.removeCard', { code: use?.code ?? code.toUpperCase() })}
                  </button>
                </span>
              </li>
            );
          })}
        </ul>
      )}
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
          {current.dueCents !== undefined && (
            <>
              <dt className="text-slate-300">{t('basket.giftCardsPay')}</dt>
              <dd className="text-right">−{formatMoney(current.totalCents - current.dueCents)}</dd>
              <dt className="font-semibold text-white">{t('basket.dueByCard')}</dt>
              <dd className="text-right font-semibold text-white" data-testid="basket-due">
                {formatMoney(current.dueCents)}
              </dd>
            </>
          )}
        </dl>
      )}
      {current && <OrderTaxes order={current} currency={current.currency} />}
    </section>
  );
}
