import { useId, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { formatMoney, SEAT_TYPE_NAMES } from '@cinema/contract/constants';
import type { PaymentMethod, SeatType, StaffOrder } from '@cinema/contract';
import { ApiError, errorText } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { usePageHeading } from '../../../lib/use-page-heading';
import { seatWithType } from '../../../lib/seat-text';
import type { SeatCell } from '../../../components/seat-map/seat-view';
import { FormMessages } from '../../../components/ui/form-messages';
import { QueryStatus } from '../../../components/ui/query-status';
import { useCounterSale, useSellableShowtimes, useShowtimePrices } from '../api/box-office';
import { BoxOfficeNav } from './box-office-nav';
import { StaffSeatPicker } from './staff-seat-picker';

interface Chosen {
  seat: SeatCell;
  ticketTypeId: string | null;
}

/** /admin/box-office: sell seats at the counter, cash or card, blocked (house) seats too. */
export function CounterSaleScreen() {
  const showtimes = useSellableShowtimes();
  const [showtimeId, setShowtimeId] = useState('');
  const prices = useShowtimePrices(showtimeId);
  const [chosen, setChosen] = useState<Chosen[]>([]);
  const [method, setMethod] = useState<PaymentMethod>('card');
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sold, setSold] = useState<StaffOrder | null>(null);
  // One key per sale: a double click or a retry after a timeout answers with the same order, never a second sale.
  const requestId = useRef(crypto.randomUUID());
  const sale = useCounterSale();
  const heading = usePageHeading('Box office');
  const done = useRef<HTMLDivElement>(null);
  const id = useId();

  const priceOf = (c: Chosen): number | null => {
    const p = prices.data;
    if (!p) return null;
    const show = showtimes.data?.find((s) => s.id === showtimeId);
    if (c.ticketTypeId === null) return p.priceCard ? null : (show?.priceCents ?? null);
    return (
      p.prices.find((x) => x.ticketTypeId === c.ticketTypeId && x.seatType === (c.seat.type as SeatType))
        ?.priceCents ?? null
    );
  };
  const defaultType = prices.data?.defaultTicketTypeId ?? null;
  const lines = chosen.map((c) => ({ ...c, ticketTypeId: c.ticketTypeId ?? defaultType }));
  const total = lines.reduce((sum, c) => sum + (priceOf(c) ?? 0), 0);
  const unpriced = lines.some((c) => priceOf(c) === null);

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
        showtimeId,
        seatIds: lines.map((c) => c.seat.id),
        tickets: lines.flatMap((c) =>
          c.ticketTypeId ? [{ seatId: c.seat.id, ticketTypeId: c.ticketTypeId }] : [],
        ),
        paymentMethod: method,
        ...(email.trim() && { customerEmail: email.trim() }),
        ...(name.trim() && { customerName: name.trim() }),
        requestId: requestId.current,
      });
      requestId.current = crypto.randomUUID();
      setSold(order);
      setChosen([]);
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
          `Just taken by someone else: ${lines
            .filter((c) => taken.has(c.seat.id))
            .map((c) => seatWithType(c.seat))
            .join(', ')}. Choose other seats.`,
        );
      } else {
        setError(errorText(err, 'The sale did not go through'));
      }
    }
  }

  const show = showtimes.data?.find((s) => s.id === showtimeId);
  return (
    <section>
      <h1 ref={heading} tabIndex={-1} className="page-title">
        Box office
      </h1>
      <BoxOfficeNav />
      <QueryStatus query={showtimes} failure="Failed to load showtimes" />
      {sold && (
        <div ref={done} tabIndex={-1} className="notice mb-4" role="status">
          Sold: order <strong>{sold.ref}</strong>, {sold.lines.length} ticket
          {sold.lines.length === 1 ? '' : 's'}, {formatMoney(sold.totalCents)} by{' '}
          {sold.paymentMethod === 'cash' ? 'cash' : 'card'}.{' '}
          <Link to={`/admin/orders/${sold.ref}`}>Open the order</Link>
        </div>
      )}
      {showtimes.data && (
        <form onSubmit={onSubmit} className="space-y-4" aria-labelledby={`${id}-sale`}>
          <h2 id={`${id}-sale`} className="sr-only">
            Counter sale
          </h2>
          <label className="field max-w-xl">
            <span className="field-label">Showtime</span>
            <select
              className="input"
              value={showtimeId}
              onChange={(e) => {
                setShowtimeId(e.target.value);
                setChosen([]);
                setError(null);
              }}
              required
            >
              <option value="">Choose a showtime</option>
              {showtimes.data.map((s) => (
                <option key={s.id} value={s.id}>
                  {formatDateTime(s.startsAt)} · {s.movie} · {s.auditorium}
                  {s.capacity !== undefined ? ` (${s.capacity - s.confirmed - s.held} free)` : ''}
                </option>
              ))}
            </select>
          </label>
          {showtimeId && (
            <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_22rem]">
              <div className="card min-w-0">
                <StaffSeatPicker
                  showtimeId={showtimeId}
                  selected={new Set(chosen.map((c) => c.seat.id))}
                  onToggle={toggle}
                  label={`Seats for ${show?.movie ?? 'this showtime'}`}
                />
              </div>
              <div className="card space-y-4">
                <h2 className="text-lg font-semibold text-white">
                  {lines.length === 0
                    ? 'No seats chosen'
                    : `${lines.length} seat${lines.length === 1 ? '' : 's'}`}
                </h2>
                {lines.length === 0 && (
                  <p className="muted">Choose seats on the map; blocked seats can be sold here.</p>
                )}
                <ul className="space-y-2">
                  {lines.map((c) => {
                    const price = priceOf(c);
                    return (
                      <li key={c.seat.id} className="flex flex-wrap items-center gap-2">
                        <span className="min-w-28 font-semibold text-gold">{seatWithType(c.seat)}</span>
                        {prices.data && prices.data.ticketTypes.length > 0 && (
                          <select
                            className="input w-auto"
                            aria-label={`Ticket type for ${seatWithType(c.seat)}`}
                            value={c.ticketTypeId ?? ''}
                            onChange={(e) =>
                              setChosen((list) =>
                                list.map((x) =>
                                  x.seat.id === c.seat.id ? { ...x, ticketTypeId: e.target.value } : x,
                                ),
                              )
                            }
                          >
                            {prices.data.ticketTypes.map((t) => (
                              <option key={t.id} value={t.id}>
                                {t.name}
                              </option>
                            ))}
                          </select>
                        )}
                        <span className="ml-auto">
                          {price === null
                            ? `Not sold as this type on a ${SEAT_TYPE_NAMES[c.seat.type].toLowerCase()}`
                            : formatMoney(price)}
                        </span>
                      </li>
                    );
                  })}
                </ul>
                <fieldset className="space-y-2">
                  <legend className="field-label">Paid by</legend>
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
                        {m === 'card' ? 'Card terminal' : 'Cash'}
                      </label>
                    ))}
                  </div>
                </fieldset>
                <label className="field">
                  <span className="field-label">Customer email (optional)</span>
                  <input
                    className="input"
                    type="email"
                    autoComplete="off"
                    value={email}
                    onChange={(e) => setEmail(e.target.value)}
                  />
                </label>
                <label className="field">
                  <span className="field-label">Customer name (optional)</span>
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
                  disabled={sale.isPending || lines.length === 0 || unpriced}
                >
                  {sale.isPending
                    ? 'Selling…'
                    : lines.length === 0
                      ? 'Sell'
                      : `Sell ${lines.length} ticket${lines.length === 1 ? '' : 's'} · ${formatMoney(total)}`}
                </button>
              </div>
            </div>
          )}
        </form>
      )}
    </section>
  );
}
