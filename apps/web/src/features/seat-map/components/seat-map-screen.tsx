import { useCallback, useMemo, useState } from 'react';
import { Link, useParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import type { SeatMap, SeatsUpdate } from '@cinema/contract';
import { formatMoney, MAX_LIVE_HOLDS_PER_SHOWTIME } from '@cinema/contract/constants';
import { ApiError, errorText } from '../../../lib/api-client';
import { formatDateTime, formatTime } from '../../../lib/format';
import { seatMapQueryKey, useSeatMap } from '../api/get-seat-map';
import { useHoldSeats } from '../api/hold-seats';
import { useCancelHolds } from '../api/cancel-holds';
import { useStartCheckout } from '../api/start-checkout';
import { useNotice } from '../hooks/use-notice';
import { useSeatUpdates } from '../hooks/use-seat-updates';
import { HoldCountdown } from './hold-countdown';
import { SeatGrid } from './seat-grid';
import { SeatCounters, SeatLegend } from './seat-legend';
import { seatView, type SeatCell } from './seat-view';

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

/** Select Seats: the live seat map of one showtime, with Hold seats, Checkout and Cancel holds. */
export function SeatMapScreen() {
  const { id: showtimeId = '' } = useParams();
  const queryClient = useQueryClient();
  const seatMap = useSeatMap(showtimeId);
  const hold = useHoldSeats(showtimeId);
  const cancel = useCancelHolds(showtimeId);
  const checkout = useStartCheckout();
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [recent, setRecent] = useState<RecentHold | null>(null);
  const [notice, showNotice] = useNotice();
  const [error, setError] = useState<string | null>(null);

  const map = seatMap.data;
  const holds = useMemo(
    () => myHolds(map, seatMap.dataUpdatedAt, recent),
    [map, seatMap.dataUpdatedAt, recent],
  );

  // Someone else taking a seat this customer had selected takes it out of the selection.
  const onUpdate = useCallback((update: SeatsUpdate) => {
    const taken = update.seats.filter((s) => s.status !== 'AVAILABLE').map((s) => s.id);
    setSelected((current) => {
      if (!taken.some((id) => current.has(id))) return current;
      const next = new Set(current);
      taken.forEach((id) => next.delete(id));
      return next;
    });
  }, []);
  useSeatUpdates(showtimeId, onUpdate);

  const cells: SeatCell[] = useMemo(
    () =>
      (map?.seats ?? []).map((s) => ({
        id: s.id,
        row: s.row,
        number: s.number,
        view: seatView(s, selected, holds.seatIds),
      })),
    [map, selected, holds.seatIds],
  );
  const counts = useMemo(() => {
    const c = { available: 0, held: 0, sold: 0, selected: 0 };
    for (const s of cells) {
      if (s.view === 'AVAILABLE') c.available++;
      else if (s.view === 'SELECTED') c.selected++;
      else if (s.view === 'CONFIRMED') c.sold++;
      else c.held++;
    }
    return c;
  }, [cells]);
  const selectedIds = cells.filter((s) => s.view === 'SELECTED').map((s) => s.id);
  const hasHold = holds.bookingIds.length > 0;

  const onExpire = useCallback(() => {
    setRecent(null);
    void queryClient.invalidateQueries({ queryKey: seatMapQueryKey(showtimeId) });
  }, [queryClient, showtimeId]);

  const pressSeat = (seat: SeatCell) => {
    setError(null);
    switch (seat.view) {
      case 'CONFIRMED':
        return showNotice('Seat already sold');
      case 'HELD':
        return showNotice('Seat temporarily held');
      case 'MINE':
        return showNotice('Seat temporarily held (by you)');
      case 'SELECTED':
        return setSelected((current) => {
          const next = new Set(current);
          next.delete(seat.id);
          return next;
        });
      case 'AVAILABLE':
        if (selectedIds.length + holds.seatIds.size >= MAX_LIVE_HOLDS_PER_SHOWTIME) {
          return showNotice(`You can hold at most ${MAX_LIVE_HOLDS_PER_SHOWTIME} seats`);
        }
        return setSelected((current) => new Set(current).add(seat.id));
    }
  };

  const holdSelected = () => {
    setError(null);
    hold.mutate(selectedIds, {
      onSuccess: (res) => {
        setRecent({
          seatIds: selectedIds,
          bookingIds: res.bookingIds,
          expiresAt: res.expiresAt,
          at: Date.now(),
        });
        setSelected(new Set());
        showNotice(res.expiresAt ? `Seats held until ${formatTime(res.expiresAt)}` : 'Seats held');
      },
      onError: (err) => {
        setError(errorText(err, 'Hold failed'));
        // Seats named in a 409 were taken by someone else: they cannot stay selected.
        const body = err instanceof ApiError ? (err.body as { seatIds?: unknown } | undefined) : undefined;
        if (Array.isArray(body?.seatIds)) {
          const gone = new Set(body.seatIds as string[]);
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
        showNotice('Hold cancelled');
      },
      onError: (err) => setError(errorText(err, 'Cancel failed')),
    });
  };

  const goToCheckout = () => {
    setError(null);
    checkout.mutate(holds.bookingIds, {
      onError: (err) => setError(errorText(err, 'Failed to start checkout')),
    });
  };

  if (seatMap.isPending) {
    return (
      <section className="card">
        <h1 className="page-title">Select Seats</h1>
        <p className="muted">Loading seats…</p>
      </section>
    );
  }
  if (seatMap.isError || !map) {
    return (
      <section className="card">
        <h1 className="page-title">Select Seats</h1>
        <p className="error" role="alert">
          {errorText(seatMap.error, 'Failed to load seats')}
        </p>
        <p className="mt-4">
          <Link to="/movies">Back to movies</Link>
        </p>
      </section>
    );
  }

  const busy = hold.isPending || cancel.isPending || checkout.isPending;
  return (
    <section className="flex flex-col gap-6">
      <header>
        <p className="mb-2 text-sm">
          <Link to={`/movies/${map.showtime.movie.id}`}>← Showtimes</Link>
        </p>
        <h1 className="page-title mb-1">Select Seats</h1>
        <p className="text-slate-200">
          <span className="font-semibold text-white">{map.showtime.movie.title}</span>
          {' · '}
          {map.showtime.auditorium}
          {' · '}
          <time dateTime={map.showtime.startsAt}>{formatDateTime(map.showtime.startsAt)}</time>
          {' · '}
          {formatMoney(map.showtime.priceCents)} per seat
        </p>
      </header>

      <SeatCounters counts={counts} />

      <div className="card flex flex-col gap-6">
        <div aria-hidden className="mx-auto w-full max-w-xl">
          <div className="h-2 rounded-t-full bg-gradient-to-b from-slate-200 to-slate-500 shadow-[0_8px_24px_rgba(226,232,240,0.25)]" />
          <p className="mt-1 text-center text-xs uppercase tracking-[0.3em] text-muted">Screen</p>
        </div>
        <p className="sr-only">The screen is at the front, before row A.</p>
        {cells.length === 0 ? (
          <p className="muted text-center">This hall has no seats.</p>
        ) : (
          <SeatGrid seats={cells} onPress={pressSeat} />
        )}
        <SeatLegend />
      </div>

      <div className="card flex flex-col gap-4">
        <div className="min-h-10" aria-live="polite">
          {notice && (
            <p className="notice" role="status">
              {notice}
            </p>
          )}
        </div>
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        {hasHold && holds.expiresAt && <HoldCountdown expiresAt={holds.expiresAt} onExpire={onExpire} />}
        <p className="text-sm text-slate-300">
          {selectedIds.length > 0
            ? `${selectedIds.length} selected · ${formatMoney(selectedIds.length * map.showtime.priceCents)}`
            : hasHold
              ? `${holds.bookingIds.length} held · ${formatMoney(holds.bookingIds.length * map.showtime.priceCents)}`
              : 'Choose seats on the map.'}
        </p>
        <div className="flex flex-wrap items-start gap-3">
          <div className="flex flex-col gap-1">
            <button
              type="button"
              className="btn-primary"
              disabled={selectedIds.length === 0 || busy}
              aria-describedby={selectedIds.length === 0 ? 'hold-hint' : undefined}
              onClick={holdSelected}
            >
              {hold.isPending ? 'Holding…' : 'Hold seats'}
            </button>
            {selectedIds.length === 0 && (
              <span id="hold-hint" className="text-xs text-muted">
                Select at least one seat
              </span>
            )}
          </div>
          <div className="flex flex-col gap-1">
            <div className="flex gap-3">
              <button
                type="button"
                className="btn-secondary"
                disabled={!hasHold || busy}
                aria-describedby={!hasHold ? 'checkout-hint' : undefined}
                onClick={goToCheckout}
              >
                {checkout.isPending ? 'Starting checkout…' : 'Checkout'}
              </button>
              <button
                type="button"
                className="btn-danger"
                disabled={!hasHold || busy}
                aria-describedby={!hasHold ? 'checkout-hint' : undefined}
                onClick={cancelHolds}
              >
                Cancel holds
              </button>
            </div>
            {!hasHold && (
              <span id="checkout-hint" className="text-xs text-muted">
                Hold seats first
              </span>
            )}
          </div>
        </div>
      </div>
    </section>
  );
}
