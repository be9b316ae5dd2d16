import { Fragment, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Trans, useTranslation } from '../../../lib/i18n';
import { useParams } from 'react-router';
import type { StaffOrder, StaffOrderLine } from '@cinema/contract';
import { ApiError, errorText } from '../../../lib/api-client';
import { formatDateTime, formatMoney } from '../../../lib/format';
import { usePageHeading } from '../../../lib/use-page-heading';
import { seatWithType } from '../../../lib/seat-text';
import type { SeatCell } from '../../../components/seat-map/seat-view';
import { FormMessages } from '../../../components/ui/form-messages';
import { feeLineName, OrderTaxes } from '../../../components/order/order-taxes';
import { TicketsPdfButton } from '../../../components/ui/tickets-pdf-button';
import { QueryStatus } from '../../../components/ui/query-status';
import { useExchange, useMovieShowtimes, useRefund, useStaffOrder } from '../api/box-office';
import { BoxOfficeNav } from './box-office-nav';
import { OrderItems } from './order-items';
import { orderStatusText, paidByText, paymentsText } from '../lib/order-text';
import { StaffSeatPicker } from './staff-seat-picker';

const lineName = (l: StaffOrderLine) => `${seatWithType(l.seat)} · ${l.movie}, ${formatDateTime(l.startsAt)}`;

/** /admin/orders/{ref}: an order's tickets; refund some or all, or move one to another seat or showtime. */
export function OrderScreen() {
  const { t } = useTranslation('admin');
  const { ref = '' } = useParams();
  const order = useStaffOrder(ref);
  const heading = usePageHeading(t('order.title', { ref: ref.toUpperCase() }));

  return (
    <section>
      <h1 ref={heading} tabIndex={-1} className="page-title">
        <Trans
          t={t}
          i18nKey="order.heading"
          values={{ ref: order.data?.ref ?? ref.toUpperCase() }}
          components={{ mono: <span className="font-mono" /> }}
        />
      </h1>
      <BoxOfficeNav />
      <QueryStatus query={order} failure={t('order.loadFailed')} />
      {order.data && <OrderDetails order={order.data} />}
    </section>
  );
}

function OrderDetails({ order }: { order: StaffOrder }) {
  const { t } = useTranslation('admin');
  const { t: tc } = useTranslation('common');
  const [moving, setMoving] = useState<StaffOrderLine | null>(null);
  const due = order.lines.reduce((sum, l) => sum + l.dueCents, 0);
  return (
    <div className="space-y-4">
      <dl className="card grid gap-x-6 gap-y-2 sm:grid-cols-[auto_1fr]">
        <dt className="text-muted">{t('order.status')}</dt>
        <dd>
          {orderStatusText(order.status)}
          {order.testMode && (
            <span className="ml-2 rounded bg-amber-900 px-2 text-amber-100">{t('order.test')}</span>
          )}
        </dd>
        <dt className="text-muted">{t('order.customer')}</dt>
        <dd className="break-all">
          {[order.customer.name, order.customer.email].filter(Boolean).join(' · ') || t('orders.walkIn')}
        </dd>
        <dt className="text-muted">{t('order.paid')}</dt>
        <dd>
          {formatMoney(order.totalCents)} · {paidByText(order)}
          {order.paidAt && ` · ${formatDateTime(order.paidAt)}`}
          {order.soldBy && t('order.soldBy', { name: order.soldBy })}
        </dd>
        {(order.payments.length > 1 || order.payments.some((p) => p.method === 'GIFT_CARD')) && (
          <>
            <dt className="text-muted">{t('order.payments')}</dt>
            <dd data-testid="order-payments">{paymentsText(order, formatMoney)}</dd>
          </>
        )}
        {order.lines
          .filter((l) => l.kind === 'FEE')
          .map((l, i) => (
            <Fragment key={`fee-${i}`}>
              <dt className="text-muted">{feeLineName(l, tc)}</dt>
              <dd>
                {formatMoney(l.priceCents)}
                {l.status === 'refunded' && ` · ${t('order.lineStatuses.refunded')}`}
              </dd>
            </Fragment>
          ))}
        {order.taxCents > 0 && (
          <>
            <dt className="text-muted">{t('order.tax')}</dt>
            <dd className="[&_ul]:text-left">
              <OrderTaxes order={order} currency={order.currency} />
            </dd>
          </>
        )}
        {order.discountCents > 0 && (
          <>
            <dt className="text-muted">{t('order.discount')}</dt>
            <dd>
              {formatMoney(order.discountCents)}
              {order.promoCode && ` (${order.promoCode})`}
            </dd>
          </>
        )}
        {order.refundedCents > 0 && (
          <>
            <dt className="text-muted">{t('order.refunded')}</dt>
            <dd>{formatMoney(order.refundedCents)}</dd>
          </>
        )}
        {due > 0 && (
          <>
            <dt className="text-muted">{t('order.toCollect')}</dt>
            <dd className="font-semibold text-amber-200">{formatMoney(due)}</dd>
          </>
        )}
      </dl>
      <TicketsPdfButton orderRef={order.ref} document="receipt" staff />
      <RefundForm order={order} onMove={setMoving} />
      <OrderGiftCards order={order} />
      <OrderItems order={order} />
      {moving && <MovePanel order={order} line={moving} onClose={() => setMoving(null)} />}
      {order.refunds.length > 0 && (
        <div className="card">
          <h2 className="mb-2 text-lg font-semibold text-white">{t('order.refunds')}</h2>
          <ul className="space-y-1 text-sm">
            {order.refunds.map((r, i) => (
              <li key={i}>
                {formatMoney(r.amountCents)} ·{' '}
                {t(`order.refundKind.${r.kind === 'exchange' || r.kind === 'staff' ? r.kind : 'lost'}`)} ·{' '}
                {formatDateTime(r.createdAt)} ·{' '}
                {r.status === 'succeeded' ? t('order.refundDone') : t('order.refundSending')}
                {r.by && ` · ${r.by}`}
                {r.reason && ` · “${r.reason}”`}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

/** The tickets, each to tick for a refund (or to move); a used ticket needs a second, explicit confirmation. */
function RefundForm({ order, onMove }: { order: StaffOrder; onMove: (line: StaffOrderLine) => void }) {
  const { t } = useTranslation('admin');
  const refund = useRefund(order.ref);
  // Only seats: booking fees follow the tickets (refunded with the last one when refundable), food and drink and gift
  // cards have lists of their own.
  const tickets = order.lines.filter((l) => l.kind === 'TICKET');
  const standing = tickets.filter((l) => l.status === 'confirmed');
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const [reason, setReason] = useState('');
  const [usedWarning, setUsedWarning] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const id = useId();
  const chosen = standing.filter((l) => picked.has(l.bookingId ?? ''));
  const amount = chosen.reduce((sum, l) => sum + l.priceCents - l.dueCents, 0);

  async function send(force: boolean) {
    setError(null);
    setNotice(null);
    try {
      const res = await refund.mutateAsync({
        bookingIds: chosen.map((l) => l.bookingId!),
        ...(reason.trim() && { reason: reason.trim() }),
        ...(force && { force: true }),
      });
      setUsedWarning(null);
      setPicked(new Set());
      setReason('');
      setNotice(
        res.refundedCents > 0 || res.refundedBookingIds.length > 0
          ? t('order.refundedNotice', {
              amount: formatMoney(res.refundedCents),
              count: res.refundedBookingIds.length,
            })
          : t('order.alreadyRefunded'),
      );
    } catch (err) {
      if (err instanceof ApiError && err.code === 'checked_in') setUsedWarning(err.message);
      else setError(errorText(err, t('order.refundFailed')));
    }
  }

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    void send(false);
  }

  if (tickets.length === 0) return null;
  return (
    <form onSubmit={onSubmit} className="card space-y-3" aria-labelledby={`${id}-tickets`}>
      <h2 id={`${id}-tickets`} className="text-lg font-semibold text-white">
        {t('order.tickets')}
      </h2>
      <ul className="space-y-2">
        {tickets.map((l) => {
          const open = l.status === 'confirmed';
          return (
            <li key={l.bookingId ?? lineName(l)} className="flex flex-wrap items-center gap-x-3 gap-y-1">
              <label className="flex grow items-center gap-2">
                <input
                  type="checkbox"
                  disabled={!open}
                  checked={picked.has(l.bookingId ?? '')}
                  onChange={(e) => {
                    const next = new Set(picked);
                    if (e.target.checked) next.add(l.bookingId!);
                    else next.delete(l.bookingId!);
                    setPicked(next);
                    setUsedWarning(null);
                  }}
                />
                <span>
                  <span className="font-semibold text-gold">{seatWithType(l.seat)}</span> · {l.movie},{' '}
                  {formatDateTime(l.startsAt)} · {l.auditorium} · {l.ticketType} {formatMoney(l.priceCents)}
                  {l.dueCents > 0 && (
                    <span className="text-amber-200">
                      {t('order.lineDue', { amount: formatMoney(l.dueCents) })}
                    </span>
                  )}
                  {!open && (
                    <span className="text-muted">
                      {t('order.lineStatus', { status: t(`order.lineStatuses.${l.status}`) })}
                    </span>
                  )}
                  {l.checkedInAt && (
                    <span className="text-emerald-300">
                      {t('order.lineIn', { at: formatDateTime(l.checkedInAt) })}
                    </span>
                  )}
                </span>
              </label>
              {open && l.movieId && (
                <button
                  type="button"
                  className="btn-secondary"
                  aria-label={t('order.moveNamed', { seat: seatWithType(l.seat) })}
                  onClick={() => onMove(l)}
                >
                  {t('order.move')}
                </button>
              )}
            </li>
          );
        })}
      </ul>
      {standing.length > 0 && (
        <>
          <div className="flex flex-wrap gap-2">
            <button
              type="button"
              className="btn-secondary"
              onClick={() => setPicked(new Set(standing.map((l) => l.bookingId!)))}
            >
              {t('order.chooseAll')}
            </button>
          </div>
          <label className="field max-w-xl">
            <span className="field-label">{t('order.reason')}</span>
            <input
              className="input"
              value={reason}
              maxLength={300}
              onChange={(e) => setReason(e.target.value)}
            />
          </label>
        </>
      )}
      <FormMessages error={error} notice={notice} />
      {usedWarning && (
        <div className="error space-y-2" role="alert">
          <p>{usedWarning}</p>
          <button
            type="button"
            className="btn-danger"
            onClick={() => void send(true)}
            disabled={refund.isPending}
          >
            {t('order.refundAnyway')}
          </button>
        </div>
      )}
      {standing.length > 0 && (
        <button type="submit" className="btn-danger" disabled={refund.isPending || chosen.length === 0}>
          {refund.isPending
            ? t('order.refunding')
            : chosen.length === 0
              ? t('order.refund')
              : t('order.refundCount', { count: chosen.length, amount: formatMoney(amount) })}
        </button>
      )}
    </form>
  );
}

/**
 * The gift cards the order sold (decision 045): each card's value, its code as the API gives it to staff, who it is
 * for and what became of it. They are no seats: a refund names the card's line and voids the card, and the server
 * refuses it once the card was used (its answer is shown as it is).
 */
function OrderGiftCards({ order }: { order: StaffOrder }) {
  const { t } = useTranslation('admin');
  const refund = useRefund(order.ref);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const id = useId();
  const cards = order.lines.filter((l) => l.kind === 'GIFT_CARD');
  if (cards.length === 0) return null;

  async function send(lineId: string) {
    setError(null);
    setNotice(null);
    try {
      const res = await refund.mutateAsync({ giftCardLineIds: [lineId] });
      setNotice(
        res.refundedCents > 0
          ? t('order.giftCardRefunded', { amount: formatMoney(res.refundedCents) })
          : t('order.alreadyRefunded'),
      );
    } catch (err) {
      setError(errorText(err, t('order.refundFailed')));
    }
  }

  return (
    <section className="card space-y-2" aria-labelledby={`${id}-cards`}>
      <h2 id={`${id}-cards`} className="text-lg font-semibold text-white">
        {t('order.giftCards')}
      </h2>
      <ul className="space-y-2">
        {cards.map((l, i) => {
          const lineId = l.status === 'confirmed' ? l.giftCard?.lineId : undefined;
          return (
            <li key={l.giftCard?.lineId ?? i} className="flex flex-wrap items-center gap-x-3 gap-y-1">
              <span className="grow">
                <span className="font-semibold text-gold">{formatMoney(l.priceCents)}</span>
                {' · '}
                {l.giftCard?.code ? (
                  <span className="font-mono">{l.giftCard.code}</span>
                ) : (
                  t('order.giftCardNoCode')
                )}
                {l.giftCard?.recipientEmail &&
                  ` · ${t('order.giftCardFor', { email: l.giftCard.recipientEmail })}`}
                {' · '}
                <span className="text-muted">{t(`order.giftCardStatuses.${l.status}`)}</span>
              </span>
              {lineId && (
                <button
                  type="button"
                  className="btn-danger"
                  disabled={refund.isPending}
                  onClick={() => void send(lineId)}
                >
                  {t('order.refundGiftCard', { amount: formatMoney(l.priceCents) })}
                </button>
              )}
            </li>
          );
        })}
      </ul>
      <p className="text-sm text-muted">{t('order.giftCardRefundRule')}</p>
      <FormMessages error={error} notice={notice} />
    </section>
  );
}

/** Move one ticket: the same showtime or another of the same movie, then a free (or blocked) seat. */
function MovePanel({
  order,
  line,
  onClose,
}: {
  order: StaffOrder;
  line: StaffOrderLine;
  onClose: () => void;
}) {
  const { t } = useTranslation('admin');
  const showtimes = useMovieShowtimes(line.movieId);
  const exchange = useExchange(order.ref);
  const [showtimeId, setShowtimeId] = useState(line.showtimeId ?? '');
  const [seat, setSeat] = useState<SeatCell | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [line.bookingId]);

  async function send(force: boolean) {
    if (!seat) return;
    setError(null);
    try {
      const res = await exchange.mutateAsync({
        moves: [{ bookingId: line.bookingId!, seatId: seat.id, showtimeId }],
        ...(force && { force: true }),
      });
      const to = seatWithType(seat);
      setNotice(
        res.dueCents > 0
          ? t('order.movedCollect', { seat: to, amount: formatMoney(res.dueCents) })
          : res.refundedCents > 0
            ? t('order.movedRefund', { seat: to, amount: formatMoney(res.refundedCents) })
            : t('order.moved', { seat: to }),
      );
      setSeat(null);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'checked_in' && window.confirm(`${err.message}`)) {
        await send(true);
        return;
      }
      setError(errorText(err, t('order.moveFailed')));
    }
  }

  return (
    <div className="card space-y-3">
      <h2 ref={heading} tabIndex={-1} className="text-lg font-semibold text-white">
        {t('order.moveHeading', { line: lineName(line) })}
      </h2>
      <QueryStatus query={showtimes} failure={t('common.failedShowtimes')} />
      {showtimes.data && (
        <label className="field max-w-xl">
          <span className="field-label">{t('boxOffice.showtime')}</span>
          <select
            className="input"
            value={showtimeId}
            onChange={(e) => {
              setShowtimeId(e.target.value);
              setSeat(null);
            }}
          >
            {!showtimes.data.some((s) => s.id === line.showtimeId) && line.showtimeId && (
              <option value={line.showtimeId}>
                {t('order.thisTickets', { showtime: formatDateTime(line.startsAt) })}
              </option>
            )}
            {showtimes.data.map((s) => (
              <option key={s.id} value={s.id}>
                {s.id === line.showtimeId
                  ? t('order.thisTickets', { showtime: `${formatDateTime(s.startsAt)} · ${s.auditorium}` })
                  : `${formatDateTime(s.startsAt)} · ${s.auditorium}`}
              </option>
            ))}
          </select>
        </label>
      )}
      {showtimeId && (
        <StaffSeatPicker
          showtimeId={showtimeId}
          selected={new Set(seat ? [seat.id] : [])}
          onToggle={(s) => setSeat((current) => (current?.id === s.id ? null : s))}
          label={t('order.chooseNewSeat')}
        />
      )}
      <FormMessages error={error} notice={notice} />
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          className="btn-primary"
          disabled={!seat || exchange.isPending}
          onClick={() => void send(false)}
        >
          {exchange.isPending
            ? t('order.moving')
            : seat
              ? t('order.moveTo', { seat: seatWithType(seat) })
              : t('order.chooseSeat')}
        </button>
        <button type="button" className="btn-secondary" onClick={onClose}>
          {t('order.done')}
        </button>
      </div>
    </div>
  );
}
