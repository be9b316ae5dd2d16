import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { AttributeBadges } from '../../../components/ui/attribute-badges';
import { Link, useParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import type { HoldError, SeatMap, SeatsUpdate } from '@cinema/contract';
import { accessibleSeatsReleased, MAX_LIVE_HOLDS_PER_SHOWTIME } from '@cinema/contract/constants';
import { SeatGrid } from '../../../components/seat-map/seat-grid';
import { SeatLegend } from '../../../components/seat-map/seat-legend';
import { sofaPartner, type SeatCell } from '../../../components/seat-map/seat-view';
import { ApiError, errorText } from '../../../lib/api-client';
import { formatDateTime, formatTime, useFormatMoney } from '../../../lib/format';
import { i18n, withTexts } from '../../../lib/i18n';
import { seatsInWords } from '../../../lib/seat-text';
import { seatMapQueryKey, useSeatMap } from '../api/get-seat-map';
import { useHoldSeats } from '../api/hold-seats';
import { useCancelHolds } from '../api/cancel-holds';
import { useStartCheckout } from '../api/start-checkout';
import { useNotice } from '../hooks/use-notice';
import { useSeatUpdates } from '../hooks/use-seat-updates';
import { hallGrid, seatCells } from '../../../components/seat-map/seat-cells';
import { FindSeatsForm } from './find-seats-form';
import { myWaitlistQueryKey } from '../api/get-my-waitlist';
import { SeatCounters } from './seat-counters';
import { WaitlistPlaceholder } from './waitlist-placeholder';
import type { BasketChoice } from './basket';
import { useTranslation } from '../../../lib/i18n';

// The basket (ticket types, promo code, the server's quote) and the hold's countdown load once seats are held: the
// map comes first (and keeps within its bundle budget). They bring the rest of the texts (`common`'s `rest` part).
const Basket = lazy(() => withTexts(import('./basket'), ['rest']).then((m) => ({ default: m.Basket })));
const HoldCountdown = lazy(() =>
  withTexts(import('./basket'), ['rest']).then((m) => ({ default: m.HoldCountdown })),
);
// The waiting list's panel (DESIGN §7.6) loads after the map too.
const WaitlistPanel = lazy(() =>
  withTexts(import('./waitlist-panel'), ['rest']).then((m) => ({ default: m.WaitlistPanel })),
);

/** A hold this page just made, used until a seat map read after it arrives (that one knows it too). */
interface RecentHold {
  seatIds: string[];
  bookingIds: string[];
  expiresAt: string;
  at: number;
}

/** The customer's live holds on this showtime: booking ids (for checkout and cancel), seats and earliest expiry. */
function myHolds(map: SeatMap | undefined, dataUpdatedAt: number, recent: RecentHold | null) {
  const fromMap = (map?.seats ?? []).filter((s) => s.heldByMe && s.bookingId);
  const useRecent = recent !== null && dataUpdatedAt < recent.at;
  const bookingIds = new Set(fromMap.map((s) => s.bookingId!));
  const seatIds = new Set(fromMap.map((s) => s.id));
  const expiries = fromMap.map((s) => s.expiresAt!);
  if (useRecent) {
    recent.bookingIds.forEach((id) => bookingIds.add(id));
    recent.seatIds.forEach((id) => seatIds.add(id));
    expiries.push(recent.expiresAt);
  }
  const expiresAt = expiries.sort((a, b) => Date.parse(a) - Date.parse(b))[0] ?? null;
  return { bookingIds: [...bookingIds], seatIds, expiresAt };
}

/** The selection rules and their advice, loaded once `wanted` (the first seat chosen); null until then. */
function useSelectionRules(wanted: boolean) {
  const [rules, setRules] = useState<typeof import('./selection-advice') | null>(null);
  useEffect(() => {
    if (!wanted || rules) return;
    let current = true;
    void withTexts(import('./selection-advice'), ['rest']).then((loaded) => current && setRules(loaded));
    return () => {
      current = false;
    };
  }, [wanted, rules]);
  return rules;
}

/** Hold refusals whose seats someone else has (or that are not for sale): they cannot stay selected. */
const GONE_CODES = new Set([undefined, 'seat_unavailable', 'seat_blocked', 'bad_request']);

/** The basket bar's buttons take less room on a phone, so the bar keeps to two rows and the map stays in view. */
const phoneButton = 'max-sm:px-2! max-sm:text-[13px]!';

/**
 * Select Seats: the live seat map of one showtime, with "Find me N seats", advice on the selection (a companion seat
 * without its wheelchair space, a seat left alone), Hold seats, Checkout and Cancel holds.
 */
export function SeatMapScreen() {
  const { t } = useTranslation('common');
  const formatMoney = useFormatMoney();
  const { id: showtimeId = '' } = useParams();
  const queryClient = useQueryClient();
  const seatMap = useSeatMap(showtimeId);
  const hold = useHoldSeats(showtimeId);
  const cancel = useCancelHolds(showtimeId);
  const checkout = useStartCheckout(showtimeId);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [recent, setRecent] = useState<RecentHold | null>(null);
  const [notice, showNotice] = useNotice();
  const [error, setError] = useState<string | null>(null);
  /** The nearest choice leaving nobody alone, from a hold the server refused with single_seat_gap. */
  const [refusedGap, setRefusedGap] = useState<string[] | null>(null);
  /** Each held seat's ticket type and the promo code that applies, as the basket has them. */
  const [choice, setChoice] = useState<BasketChoice>({});

  const map = seatMap.data;
  const holds = useMemo(
    () => myHolds(map, seatMap.dataUpdatedAt, recent),
    [map, seatMap.dataUpdatedAt, recent],
  );

  // Someone else taking a seat this customer had selected takes it out of the selection, and says which by name
  // (not the seats of this customer's own hold on its way: its broadcast may come before the answer).
  const selectedNow = useRef(selected);
  const seatsNow = useRef<SeatCell[]>([]);
  const holding = useRef<ReadonlySet<string>>(new Set());
  const [lostSeats, setLostSeats] = useState<string | null>(null);
  const onUpdate = useCallback(
    (update: SeatsUpdate) => {
      // Seats held may be an offer from the waiting list to this customer: their place in line is asked for again.
      if (update.seats.some((s) => s.status === 'HELD')) {
        void queryClient.invalidateQueries({ queryKey: myWaitlistQueryKey });
      }
      const taken = update.seats
        .filter((s) => s.status !== 'AVAILABLE' && !holding.current.has(s.id))
        .map((s) => s.id);
      setSelected((current) => {
        if (!taken.some((id) => current.has(id))) return current;
        return new Set([...current].filter((id) => !taken.includes(id)));
      });
      const lost = taken.filter((id) => selectedNow.current.has(id));
      if (lost.length === 0) return;
      const byId = new Map(seatsNow.current.map((c) => [c.id, c]));
      setLostSeats(
        i18n.t('common:seatMap.lost', { seats: seatsInWords(lost.flatMap((id) => byId.get(id) ?? [])) }),
      );
    },
    [queryClient],
  );
  const live = useSeatUpdates(showtimeId, onUpdate);

  const grid = useMemo(() => (map ? hallGrid(map) : { rows: [], cols: 1 }), [map]);
  const cells: SeatCell[] = useMemo(
    () => (map ? seatCells(map, selected, holds.seatIds) : []),
    [map, selected, holds.seatIds],
  );
  const counts = useMemo(() => {
    const c = { available: 0, held: 0, sold: 0, selected: 0 };
    for (const s of cells) {
      if (s.view === 'AVAILABLE') c.available++;
      else if (s.view === 'SELECTED') c.selected++;
      else if (s.view === 'CONFIRMED') c.sold++;
      else if (s.view !== 'BLOCKED') c.held++;
    }
    return c;
  }, [cells]);
  const selectedIds = cells.filter((s) => s.view === 'SELECTED').map((s) => s.id);
  useEffect(() => {
    selectedNow.current = selected;
    seatsNow.current = cells;
  }, [selected, cells]);

  // The selection rules, as the server applies them (the same functions): advice before Hold seats.
  const gapRule = map?.rules?.singleSeatGap ?? 'warn';
  const releaseAt = map?.showtime.accessibleReleaseAt;
  // Wheelchair spaces and companion seats are kept for those who need them until the release (DESIGN §7.5): its
  // moment has passed, or no other seat is left (the customer's own selection still counts as free, as the server
  // sees it). Once released, a companion seat sells alone.
  const accessibleReleased = useMemo(
    () =>
      accessibleSeatsReleased(
        releaseAt,
        cells.map((c) => ({ type: c.type, free: c.view === 'AVAILABLE' || c.view === 'SELECTED' })),
      ),
    [releaseAt, cells],
  );
  const accessibleNote =
    releaseAt && cells.some((c) => c.type === 'WHEELCHAIR' || c.type === 'COMPANION')
      ? accessibleReleased
        ? t('seatMap.accessibleReleased')
        : t('seatMap.accessibleKept', { time: formatTime(releaseAt) })
      : undefined;
  const selectionKey = selectedIds.join(' ');
  const rules = useSelectionRules(selectionKey !== '');
  const verdict = useMemo(
    () =>
      rules && selectionKey
        ? rules.judgeSelection(grid, cells, selectionKey.split(' '), gapRule, accessibleReleased)
        : null,
    [rules, selectionKey, grid, cells, gapRule, accessibleReleased],
  );
  const refusedAlternative = useMemo(() => {
    const ids = new Set(refusedGap ?? []);
    return cells.filter((c) => ids.has(c.id));
  }, [cells, refusedGap]);
  // A companion seat needs its wheelchair space in the same hold; under `enforce` no seat may be left alone.
  const holdRefused = Boolean(verdict && (verdict.companions.length > 0 || verdict.gap?.refused));
  const hasHold = holds.bookingIds.length > 0;

  // When the hold runs out or gets more time: the seat map says what stands now.
  const onExpire = useCallback(() => {
    setRecent(null);
    void queryClient.invalidateQueries({ queryKey: seatMapQueryKey(showtimeId) });
  }, [queryClient, showtimeId]);

  const choose = (seatIds: string[]) => {
    setError(null);
    setRefusedGap(null);
    setSelected(new Set(seatIds));
  };

  const pressSeat = (seat: SeatCell) => {
    setError(null);
    setLostSeats(null);
    // A sofa is sold whole: its two seats are chosen and let go together.
    const partner = seat.type === 'SOFA' ? sofaPartner(cells, seat) : undefined;
    const pair = [seat.id, ...(partner ? [partner.id] : [])];
    switch (seat.view) {
      case 'CONFIRMED':
        return showNotice(t('seatMap.why.sold'));
      case 'HELD':
        return showNotice(t('seatMap.why.held'));
      case 'MINE':
        return showNotice(t('seatMap.why.mine'));
      case 'BLOCKED':
        return showNotice(t('seatMap.why.blocked'));
      case 'SELECTED':
        return setSelected((current) => new Set([...current].filter((id) => !pair.includes(id))));
      case 'AVAILABLE':
        if (seat.type === 'SOFA' && partner?.view !== 'AVAILABLE') {
          return showNotice(t('seatMap.why.sofa'));
        }
        if (selectedIds.length + holds.seatIds.size + pair.length > MAX_LIVE_HOLDS_PER_SHOWTIME) {
          return showNotice(t('seatMap.why.max', { max: MAX_LIVE_HOLDS_PER_SHOWTIME }));
        }
        return setSelected((current) => new Set([...current, ...pair]));
    }
  };

  const holdSelected = () => {
    setError(null);
    setLostSeats(null);
    holding.current = new Set(selectedIds);
    hold.mutate(selectedIds, {
      onSettled: () => (holding.current = new Set()),
      onSuccess: (res) => {
        setRecent({
          seatIds: selectedIds,
          bookingIds: res.bookingIds,
          expiresAt: res.expiresAt,
          at: Date.now(),
        });
        setSelected(new Set());
        setRefusedGap(null);
        showNotice(
          res.expiresAt ? t('seatMap.heldUntil', { time: formatTime(res.expiresAt) }) : t('seatMap.held'),
        );
      },
      onError: (err) => {
        setError(errorText(err, t('seatMap.holdFailed')));
        const body = err instanceof ApiError ? (err.body as Partial<HoldError> | undefined) : undefined;
        if (err instanceof ApiError && err.code === 'single_seat_gap' && Array.isArray(body?.alternative)) {
          setRefusedGap(body.alternative);
        }
        // Seats someone else took (or that are not for sale) cannot stay selected.
        if (err instanceof ApiError && GONE_CODES.has(err.code) && Array.isArray(body?.seatIds)) {
          const gone = new Set(body.seatIds);
          setSelected((current) => new Set([...current].filter((id) => !gone.has(id))));
        }
      },
    });
  };

  const cancelHolds = () => {
    setError(null);
    cancel.mutate(holds.bookingIds, {
      onSuccess: () => {
        setRecent(null);
        showNotice(t('seatMap.holdCancelled'));
      },
      onError: (err) => setError(errorText(err, t('seatMap.cancelFailed'))),
    });
  };

  const goToCheckout = () => {
    setError(null);
    const tickets = choice.tickets?.filter((t) => holds.bookingIds.includes(t.bookingId));
    checkout.mutate(
      {
        bookingIds: holds.bookingIds,
        ...(tickets && tickets.length > 0 && { tickets }),
        ...(choice.promoCode && { promoCode: choice.promoCode }),
        ...(choice.products &&
          choice.products.length > 0 && { products: choice.products, fulfilment: choice.fulfilment }),
        ...(choice.redeem && { redeem: choice.redeem }),
      },
      {
        onError: (err) => setError(errorText(err, t('seatMap.checkoutFailed'))),
      },
    );
  };

  if (seatMap.isPending) {
    return (
      <section className="card">
        <h1 className="page-title">{t('seatMap.title')}</h1>
        <p className="muted">{t('seatMap.loading')}</p>
      </section>
    );
  }
  if (seatMap.isError || !map) {
    return (
      <section className="card">
        <h1 className="page-title">{t('seatMap.title')}</h1>
        <p className="error" role="alert">
          {errorText(seatMap.error, t('seatMap.loadFailed'))}
        </p>
        <p className="mt-4">
          <Link to="/movies">{t('seatMap.backToMovies')}</Link>
        </p>
      </section>
    );
  }

  const busy = hold.isPending || cancel.isPending || checkout.isPending;
  return (
    <section className="flex flex-col gap-6">
      <header>
        <p className="mb-2 text-sm">
          <Link to={`/movies/${map.showtime.movie.id}`}>{t('seatMap.backToShowtimes')}</Link>
        </p>
        <h1 className="page-title mb-1">{t('seatMap.title')}</h1>
        <p className="text-slate-200">
          <span className="font-semibold text-white">{map.showtime.movie.title}</span>
          {' · '}
          {map.showtime.auditorium}
          {' · '}
          <time dateTime={map.showtime.startsAt}>{formatDateTime(map.showtime.startsAt)}</time>
          {' · '}
          {t('seatMap.perSeat', { price: formatMoney(map.showtime.priceCents) })}
        </p>
        <AttributeBadges attributes={map.showtime.attributes} className="mt-2" />
      </header>

      <SeatCounters counts={counts} />

      <Suspense fallback={<WaitlistPlaceholder />}>
        <WaitlistPanel showtimeId={showtimeId} soldOut={counts.available === 0 && !hasHold} />
      </Suspense>

      <div className="card">
        <FindSeatsForm
          showtimeId={showtimeId}
          onFound={(seatIds) => {
            choose(seatIds);
            const byId = new Map(cells.map((c) => [c.id, c]));
            showNotice(
              t('seatMap.found', { seats: seatsInWords(seatIds.flatMap((id) => byId.get(id) ?? [])) }),
            );
          }}
        />
      </div>

      <div className="card flex flex-col gap-6">
        {cells.length === 0 ? (
          <p className="muted text-center">{t('seatMap.noSeats')}</p>
        ) : (
          <SeatGrid rows={grid.rows} cols={grid.cols} seats={cells} onPress={pressSeat} />
        )}
        <SeatLegend
          types={new Set(cells.map((c) => c.type))}
          blocked={cells.some((c) => c.view === 'BLOCKED')}
          note={accessibleNote}
        />
      </div>

      {/* The basket bar: what is chosen and the step's one primary action, in view while the map scrolls. */}
      <div
        className="sticky bottom-0 z-10 flex flex-wrap items-start gap-x-2 gap-y-2 rounded-t-2xl sm:gap-x-3 border border-line bg-panel/95 px-4 py-3 shadow-[0_-8px_24px_rgba(0,0,0,0.45)] backdrop-blur"
        data-testid="basket-bar"
      >
        {/* Where the customer is looking, a phone's map included: seats that left the selection, by name. */}
        <div aria-live="polite" className="w-full empty:hidden">
          {lostSeats && <p className="text-sm font-semibold text-gold">{lostSeats}</p>}
        </div>
        <p className="w-full text-sm text-slate-200 sm:w-auto sm:grow sm:self-center">
          {selectedIds.length > 0
            ? t('seatMap.selected', {
                count: selectedIds.length,
                price: formatMoney(selectedIds.length * map.showtime.priceCents),
              })
            : hasHold
              ? t('seatMap.heldCount', { count: holds.bookingIds.length })
              : t('seatMap.choose')}
        </p>
        <div className="flex flex-col gap-1">
          <button
            type="button"
            className={`${hasHold && selectedIds.length === 0 ? 'btn-secondary' : 'btn-primary'} ${phoneButton}`}
            disabled={selectedIds.length === 0 || holdRefused || busy}
            aria-describedby={
              selectedIds.length === 0 && !hasHold
                ? 'hold-hint'
                : holdRefused
                  ? 'selection-advice'
                  : undefined
            }
            onClick={holdSelected}
          >
            {hold.isPending ? t('seatMap.holding') : t('seatMap.hold')}
          </button>
          {selectedIds.length === 0 && !hasHold && (
            <span id="hold-hint" className="text-xs text-muted">
              {t('seatMap.selectOne')}
            </span>
          )}
        </div>
        <div className="flex flex-col gap-1">
          <div className="flex gap-2 sm:gap-3">
            <button
              type="button"
              className={`${hasHold && selectedIds.length === 0 ? 'btn-primary' : 'btn-secondary'} ${phoneButton}`}
              disabled={!hasHold || busy}
              aria-describedby={!hasHold ? 'checkout-hint' : undefined}
              onClick={goToCheckout}
            >
              {checkout.isPending ? t('seatMap.startingCheckout') : t('seatMap.checkout')}
            </button>
            <button
              type="button"
              className={`btn-danger ${phoneButton}`}
              disabled={!hasHold || busy}
              aria-describedby={!hasHold ? 'checkout-hint' : undefined}
              onClick={cancelHolds}
            >
              {t('seatMap.cancelHolds')}
            </button>
          </div>
          {!hasHold && (
            <span id="checkout-hint" className="text-xs text-muted">
              {t('seatMap.holdFirst')}
            </span>
          )}
        </div>
      </div>

      <div className="card flex flex-col gap-4">
        <div className="min-h-10" aria-live="polite">
          {notice && (
            <p className="notice" role="status">
              {notice}
            </p>
          )}
          {live.paused && (
            <p className="notice" role="status">
              {t('seatMap.paused')}
            </p>
          )}
        </div>
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        {hasHold && holds.expiresAt && (
          <Suspense fallback={null}>
            <HoldCountdown
              expiresAt={holds.expiresAt}
              onExpire={onExpire}
              bookingIds={holds.bookingIds}
              onExtended={onExpire}
            />
          </Suspense>
        )}
        {hasHold && (
          <Suspense fallback={<p className="muted">{t('seatMap.loadingBasket')}</p>}>
            <Basket showtimeId={showtimeId} bookingIds={holds.bookingIds} onChange={setChoice} />
          </Suspense>
        )}
        {/* After the buttons: Tab goes from the seats to Hold seats first. */}
        {rules && verdict && (
          <rules.SelectionAdvice id="selection-advice" verdict={verdict} onChoose={choose} />
        )}
        {rules && error && refusedAlternative.length > 0 && (
          <rules.TakeInstead seats={refusedAlternative} onChoose={choose} />
        )}
      </div>
    </section>
  );
}
