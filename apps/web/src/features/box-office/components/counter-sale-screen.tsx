import { useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from '../../../lib/i18n';
import type { GiftCardPurchase, PaymentMethod, SeatType, StaffOrder } from '@cinema/contract';
import { defaultTicketTypeOn, FEE_DESCRIPTIONS, ticketTypesOn } from '@cinema/contract/constants';
import { ApiError, errorText } from '../../../lib/api-client';
import { formatDateTime, formatMoney } from '../../../lib/format';
import { usePageHeading } from '../../../lib/use-page-heading';
import { useSession } from '../../../lib/session';
import { seatWithType } from '../../../lib/seat-text';
import type { SeatCell } from '../../../components/seat-map/seat-view';
import { FormMessages } from '../../../components/ui/form-messages';
import { feeLineName } from '../../../components/order/order-taxes';
import { QueryStatus } from '../../../components/ui/query-status';
import { useCounterQuote, useCounterSale, useSellableShowtimes, useShowtimePrices } from '../api/box-office';
import { BoxOfficeNav } from './box-office-nav';
import { GiftCardsToSell, RedeemAtCounter, restAfterCards, type CardToRedeem } from './counter-gift-cards';
import { CounterProducts, itemsTotal, type CounterItem } from './counter-products';
import { SaleDone } from './counter-sale-done';
import { StaffSeatPicker } from './staff-seat-picker';

interface Chosen {
  seat: SeatCell;
  ticketTypeId: string | null;
}

/**
 * /admin/box-office: sell seats at the counter, blocked (house) seats too, food and drink (handed over with the sale)
 * and gift cards (printed at once), in one basket, paid by gift cards first and the rest by cash or the card terminal.
 */
export function CounterSaleScreen() {
  const { t } = useTranslation('admin');
  const { t: tc } = useTranslation('common');
  const { user } = useSession();
  const showtimes = useSellableShowtimes();
  const [showtimeId, setShowtimeId] = useState('');
  const prices = useShowtimePrices(showtimeId);
  const [chosen, setChosen] = useState<Chosen[]>([]);
  const [giftCards, setGiftCards] = useState<GiftCardPurchase[]>([]);
  const [items, setItems] = useState<CounterItem[]>([]);
  const [redeem, setRedeem] = useState<CardToRedeem[]>([]);
  const [method, setMethod] = useState<PaymentMethod>('card');
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sold, setSold] = useState<StaffOrder | null>(null);
  // One key per sale: a double click or a retry after a timeout answers with the same order, never a second sale.
  const requestId = useRef(crypto.randomUUID());
  const sale = useCounterSale();
  const heading = usePageHeading(t('boxOffice.title'));
  const done = useRef<HTMLDivElement>(null);
  const id = useId();

  const priceOf = (c: Chosen): number | null => {
    const p = prices.data;
    if (!p) return null;
    // No ticket types at all: every seat sells at the showtime's one price.
    if (c.ticketTypeId === null) return p.ticketTypes.length === 0 ? (p.prices[0]?.priceCents ?? null) : null;
    return (
      p.prices.find((x) => x.ticketTypeId === c.ticketTypeId && x.seatType === (c.seat.type as SeatType))
        ?.priceCents ?? null
    );
  };
  // Each seat as its chosen type, else the type it sells as by default on its seat type.
  const lines = chosen.map((c) => ({
    ...c,
    ticketTypeId: c.ticketTypeId ?? (prices.data ? defaultTicketTypeOn(prices.data, c.seat.type) : null),
  }));
  const unpriced = lines.some((c) => priceOf(c) === null);
  const nothing = lines.length === 0 && giftCards.length === 0 && items.length === 0;
  // What is sold, as the sale and its quote take it.
  const basket = {
    ...(lines.length > 0 && { showtimeId }),
    seatIds: lines.map((c) => c.seat.id),
    tickets: lines.flatMap((c) =>
      c.ticketTypeId ? [{ seatId: c.seat.id, ticketTypeId: c.ticketTypeId }] : [],
    ),
    ...(giftCards.length > 0 && { giftCards }),
    ...(items.length > 0 && { products: items.map((i) => i.item) }),
  };
  // The server's price (booking fees and tax added as the sale will) once it answered; the menu's prices until then.
  const quote = useCounterQuote({ ...basket, paymentMethod: 'cash' }, !nothing && !unpriced);
  const total =
    quote.data && !nothing
      ? quote.data.totalCents
      : lines.reduce((sum, c) => sum + (priceOf(c) ?? 0), 0) +
        giftCards.reduce((sum, g) => sum + g.amountCents, 0) +
        itemsTotal(items);
  // Gift cards never pay for gift cards (the server refuses it): the cards to pay with wait for a sale without them.
  const paying = giftCards.length === 0 ? redeem : [];

  function toggle(seat: SeatCell) {
    setSold(null);
    setChosen((list) =>
      list.some((c) => c.seat.id === seat.id)
        ? list.filter((c) => c.seat.id !== seat.id)
        : [...list, { seat, ticketTypeId: null }],
    );
  }

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    try {
      const order = await sale.mutateAsync({
        ...basket,
        paymentMethod: method,
        ...(paying.length > 0 && { redeem: paying.map((c) => ({ code: c.code })) }),
        ...(email.trim() && { customerEmail: email.trim() }),
        ...(name.trim() && { customerName: name.trim() }),
        requestId: requestId.current,
      });
      requestId.current = crypto.randomUUID();
      setSold(order);
      setChosen([]);
      setGiftCards([]);
      setItems([]);
      setRedeem([]);
      setEmail('');
      setName('');
      requestAnimationFrame(() => done.current?.focus());
    } catch (err) {
      if (err instanceof ApiError && err.code === 'seat_unavailable') {
        // Someone took them meanwhile: this is a new sale once the seats are chosen again.
        requestId.current = crypto.randomUUID();
        const taken = new Set((err.body as { seatIds?: string[] }).seatIds ?? []);
        setChosen((list) => list.filter((c) => !taken.has(c.seat.id)));
        setError(
          t('boxOffice.taken', {
            seats: lines
              .filter((c) => taken.has(c.seat.id))
              .map((c) => seatWithType(c.seat))
              .join(', '),
          }),
        );
      } else {
        // This sale's key answered another sale (one made before a lost answer): the next try is a new sale.
        if (err instanceof ApiError && err.code === 'idempotency_key_reused')
          requestId.current = crypto.randomUUID();
        setError(errorText(err, t('boxOffice.saleFailed')));
      }
    }
  }

  const show = showtimes.data?.find((s) => s.id === showtimeId);
  const rest = restAfterCards(paying, total);
  return (
    <section>
      <h1 ref={heading} tabIndex={-1} className="page-title print-hidden">
        {t('boxOffice.title')}
      </h1>
      <BoxOfficeNav />
      <QueryStatus query={showtimes} failure={t('common.failedShowtimes')} />
      {sold && <SaleDone order={sold} canOpen={user?.role === 'ADMIN'} focusRef={done} />}
      {showtimes.data && (
        <div className="print-hidden space-y-4">
          <h2 id={`${id}-sale`} className="sr-only">
            {t('boxOffice.counterSale')}
          </h2>
          <label className="field max-w-xl">
            <span className="field-label">{t('boxOffice.showtime')}</span>
            <select
              className="input"
              value={showtimeId}
              onChange={(e) => {
                setShowtimeId(e.target.value);
                setChosen([]);
                setError(null);
              }}
            >
              <option value="">{t('boxOffice.chooseShowtime')}</option>
              {showtimes.data.map((s) => (
                <option key={s.id} value={s.id}>
                  {t('boxOffice.showtimeOption', {
                    startsAt: formatDateTime(s.startsAt),
                    movie: s.movie,
                    hall: s.auditorium,
                    sold: s.counts.sold,
                  })}
                </option>
              ))}
            </select>
          </label>
          <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_22rem]">
            {showtimeId ? (
              <div className="card min-w-0">
                <StaffSeatPicker
                  showtimeId={showtimeId}
                  selected={new Set(chosen.map((c) => c.seat.id))}
                  onToggle={toggle}
                  label={t('boxOffice.seatsFor', { movie: show?.movie ?? t('boxOffice.thisShowtime') })}
                />
              </div>
            ) : (
              <p className="card muted self-start">{t('boxOffice.noShowtime')}</p>
            )}
            <div className="card space-y-4">
              {showtimeId && (
                <>
                  <h3 className="text-lg font-semibold text-white">
                    {lines.length === 0
                      ? t('boxOffice.noSeats')
                      : t('boxOffice.seats', { count: lines.length })}
                  </h3>
                  {lines.length === 0 && <p className="muted">{t('boxOffice.chooseSeats')}</p>}
                  <ul className="space-y-2">
                    {lines.map((c) => {
                      const price = priceOf(c);
                      // Only the types sold on this seat's type: a price left blank on the card is not for sale there.
                      const offered = prices.data ? ticketTypesOn(prices.data, c.seat.type) : [];
                      return (
                        <li key={c.seat.id} className="flex flex-wrap items-center gap-2">
                          <span className="min-w-28 font-semibold text-gold">{seatWithType(c.seat)}</span>
                          {offered.length > 0 && (
                            <select
                              className="input w-auto"
                              aria-label={t('boxOffice.ticketTypeFor', { seat: seatWithType(c.seat) })}
                              value={c.ticketTypeId ?? ''}
                              onChange={(e) =>
                                setChosen((list) =>
                                  list.map((x) =>
                                    x.seat.id === c.seat.id ? { ...x, ticketTypeId: e.target.value } : x,
                                  ),
                                )
                              }
                            >
                              {offered.map((t) => (
                                <option key={t.id} value={t.id}>
                                  {t.name}
                                </option>
                              ))}
                            </select>
                          )}
                          <span className="ml-auto">
                            {price === null
                              ? t('boxOffice.notSoldOn', { seat: t(`seatType.${c.seat.type}`) })
                              : formatMoney(price)}
                          </span>
                        </li>
                      );
                    })}
                  </ul>
                  {quote.data && quote.data.fees.length > 0 && lines.length > 0 && (
                    <ul className="space-y-1 text-sm" aria-label={tc('order.bookingFee')}>
                      {quote.data.fees.map((f) => (
                        <li key={f.per} className="flex gap-2" data-fee-line>
                          <span>
                            {feeLineName({ name: FEE_DESCRIPTIONS[f.per], quantity: f.quantity }, tc)}
                          </span>
                          <span className="ml-auto">{formatMoney(f.totalCents)}</span>
                        </li>
                      ))}
                    </ul>
                  )}
                </>
              )}
              <CounterProducts
                items={items}
                onChange={(list) => {
                  setSold(null);
                  setItems(list);
                }}
              />
              <GiftCardsToSell
                cards={giftCards}
                onChange={(cards) => {
                  setSold(null);
                  setGiftCards(cards);
                }}
              />
              {giftCards.length === 0 ? (
                <RedeemAtCounter cards={redeem} onChange={setRedeem} totalCents={total} />
              ) : (
                redeem.length > 0 && <p className="text-sm text-amber-200">{t('boxOffice.cardsForCards')}</p>
              )}
              <form onSubmit={onSubmit} className="space-y-4" aria-labelledby={`${id}-sale`}>
                {paying.length > 0 && !nothing && (
                  <p className="text-sm" data-testid="counter-rest">
                    {t('boxOffice.restToPay', { amount: formatMoney(rest) })}
                  </p>
                )}
                <fieldset className="space-y-2" disabled={paying.length > 0 && rest === 0}>
                  <legend className="field-label">
                    {paying.length > 0 ? t('boxOffice.restPaidBy') : t('boxOffice.paidBy')}
                  </legend>
                  <div className="flex gap-4">
                    {(['card', 'cash'] as const).map((m) => (
                      <label key={m} className="flex items-center gap-2">
                        <input
                          type="radio"
                          name="method"
                          value={m}
                          checked={method === m}
                          onChange={() => setMethod(m)}
                        />
                        {m === 'card' ? t('boxOffice.card') : t('boxOffice.cash')}
                      </label>
                    ))}
                  </div>
                </fieldset>
                <label className="field">
                  <span className="field-label">{t('boxOffice.email')}</span>
                  <input
                    className="input"
                    type="email"
                    autoComplete="off"
                    value={email}
                    onChange={(e) => setEmail(e.target.value)}
                  />
                </label>
                <label className="field">
                  <span className="field-label">{t('boxOffice.name')}</span>
                  <input
                    className="input"
                    autoComplete="off"
                    value={name}
                    onChange={(e) => setName(e.target.value)}
                  />
                </label>
                <FormMessages error={error} />
                <button
                  type="submit"
                  className="btn-primary w-full"
                  disabled={sale.isPending || nothing || unpriced}
                >
                  {sale.isPending
                    ? t('boxOffice.selling')
                    : nothing
                      ? t('boxOffice.sell')
                      : giftCards.length > 0 || items.length > 0
                        ? t('boxOffice.sellTotal', { total: formatMoney(total) })
                        : t('boxOffice.sellCount', { count: lines.length, total: formatMoney(total) })}
                </button>
              </form>
            </div>
          </div>
        </div>
      )}
    </section>
  );
}
