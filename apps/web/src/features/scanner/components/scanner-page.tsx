import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import type { DoorListResponse, ScanError, ScanSyncResult } from '@cinema/contract';
import { ApiError, errorText } from '../../../lib/api-client';
import { seatWithType } from '../../../lib/seat-text';
import { formatDateTime } from '../../../lib/format';
import { doorList, doorShowtimes, scanTicket, syncScans, undoScan } from '../api/scan-ticket';
import {
  loadDeviceLabel,
  loadList,
  loadQueue,
  saveDeviceLabel,
  saveList,
  saveQueue,
  withTicket,
  type QueuedCheckIn,
} from '../offline-store';
import { useCameraCodes } from './use-camera-codes';

/** /admin/scan: first the showtime being admitted, then the door for it. */
export function ScannerPage() {
  const [params] = useSearchParams();
  const showtimeId = params.get('showtime');
  return showtimeId ? <DoorScreen key={showtimeId} showtimeId={showtimeId} /> : <ShowtimePicker />;
}

function DeviceLabelField() {
  const [label, setLabel] = useState(loadDeviceLabel);
  return (
    <label className="field">
      <span className="field-label">Device label</span>
      <input
        className="input"
        value={label}
        maxLength={60}
        onChange={(e) => {
          setLabel(e.target.value);
          if (e.target.value.trim()) saveDeviceLabel(e.target.value.trim());
        }}
        autoComplete="off"
      />
    </label>
  );
}

function Counts({ counts }: { counts: { sold: number; checkedIn: number; toCome: number } }) {
  const stat = (label: string, value: number, testId: string) => (
    <div className="rounded-lg border border-line bg-panel-2 p-2 text-center">
      <dt className="text-sm text-slate-300">{label}</dt>
      <dd className="text-2xl font-extrabold" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
  return (
    <dl className="grid grid-cols-3 gap-2">
      {stat('Sold', counts.sold, 'count-sold')}
      {stat('In', counts.checkedIn, 'count-in')}
      {stat('To come', counts.toCome, 'count-to-come')}
    </dl>
  );
}

/** The showtimes the door may admit, those whose entry window is open first. */
function ShowtimePicker() {
  const showtimes = useQuery({
    queryKey: ['door-showtimes'],
    queryFn: doorShowtimes,
    refetchInterval: 30_000,
  });
  return (
    <section className="mx-auto max-w-xl">
      <h1 className="page-title">Scan Tickets</h1>
      <div className="card mb-4">
        <DeviceLabelField />
      </div>
      <h2 className="mb-2 text-lg font-semibold">Choose the showtime being admitted</h2>
      {showtimes.isPending && <p className="muted">Loading showtimes…</p>}
      {showtimes.isError && (
        <p role="alert" className="error">
          {errorText(showtimes.error, 'Failed to load showtimes')}
        </p>
      )}
      {showtimes.data?.showtimes.length === 0 && (
        <p className="card">No showtimes to admit in the next week.</p>
      )}
      <ul className="space-y-2">
        {showtimes.data?.showtimes.map((s) => (
          <li key={s.id}>
            <Link
              to={`/admin/scan?showtime=${s.id}`}
              className="card block space-y-1 no-underline hover:border-accent"
            >
              <span className="block text-lg font-bold">{s.movie}</span>
              <span className="block">
                {formatDateTime(s.startsAt)} · {s.auditorium}
              </span>
              <span className={`block text-sm ${s.entryOpen ? 'text-emerald-300' : 'text-slate-300'}`}>
                {s.entryOpen ? 'Entry open' : `Entry opens ${formatDateTime(s.entryOpensAt)}`} ·{' '}
                {s.counts.sold} sold · {s.counts.checkedIn} in · {s.counts.toCome} to come
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

type Outcome =
  | { kind: 'idle' }
  | { kind: 'validating' }
  | {
      kind: 'valid';
      bookingId: string;
      who: string;
      seat: string;
      testMode: boolean;
      offline: boolean;
      forced: boolean;
    }
  | { kind: 'already'; who: string; seat: string; at: string; by: string; device: string | null }
  | {
      kind: 'refused';
      title: string;
      detail: string;
      /** too_early / too_late: staff may admit anyway. */
      force?: string;
    }
  | { kind: 'undone'; seat: string };

const tone = (o: Outcome) => {
  if (o.kind === 'valid') return o.testMode ? 'amber' : 'green';
  if (o.kind === 'already') return 'amber';
  if (o.kind === 'refused') return 'red';
  return 'none';
};
const TONE_CLASS = {
  green: 'border-emerald-400 bg-emerald-950 text-emerald-100',
  amber: 'border-amber-400 bg-amber-950 text-amber-100',
  red: 'border-red-400 bg-red-950 text-red-100',
  none: 'border-line bg-panel-2',
};

const useOnline = () => {
  const [online, setOnline] = useState(() => navigator.onLine);
  useEffect(() => {
    const on = () => setOnline(true);
    const off = () => setOnline(false);
    window.addEventListener('online', on);
    window.addEventListener('offline', off);
    return () => {
      window.removeEventListener('online', on);
      window.removeEventListener('offline', off);
    };
  }, []);
  return online;
};

/** A network failure (not an answer of the server): the door carries on from the list on the device. */
const isNetworkFailure = (err: unknown) => err instanceof ApiError && err.status === 0;

/** The door for one showtime: camera, big result, counts, offline queue and conflicts. */
function DoorScreen({ showtimeId }: { showtimeId: string }) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const lastCode = useRef('');
  const online = useOnline();
  const [deviceLabel] = useState(loadDeviceLabel);
  const [list, setListState] = useState<DoorListResponse | null>(() => loadList(showtimeId));
  const listRef = useRef(list);
  const [queue, setQueueState] = useState<QueuedCheckIn[]>(() => loadQueue(showtimeId));
  const queueRef = useRef(queue);
  const [loadError, setLoadError] = useState('');
  const [lastRead, setLastRead] = useState('');
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'idle' });
  const [conflicts, setConflicts] = useState<{ seat: string; text: string }[]>([]);
  const [sent, setSent] = useState('');
  const [manual, setManual] = useState('');
  const syncing = useRef(false);

  const setList = useCallback((next: DoorListResponse) => {
    listRef.current = next;
    saveList(next);
    setListState(next);
  }, []);
  const setQueue = useCallback(
    (next: QueuedCheckIn[]) => {
      queueRef.current = next;
      saveQueue(showtimeId, next);
      setQueueState(next);
    },
    [showtimeId],
  );

  /** The server's list, with this device's check-ins still waiting to be sent laid over it. */
  const refresh = useCallback(async () => {
    try {
      let fresh = await doorList(showtimeId);
      for (const q of queueRef.current)
        fresh = withTicket(fresh, q.bookingId, { checkedInAt: q.scannedAt, checkedInBy: 'this device' });
      setList(fresh);
      setLoadError('');
    } catch (err) {
      if (!isNetworkFailure(err)) setLoadError(errorText(err, 'Failed to load the ticket list'));
    }
  }, [showtimeId, setList]);

  const sync = useCallback(async () => {
    const pending = queueRef.current;
    if (syncing.current || pending.length === 0) return;
    syncing.current = true;
    try {
      const res = await syncScans({ showtimeId, deviceLabel, checkIns: pending });
      const seatOf = (id: string) => {
        const t = listRef.current?.tickets.find((x) => x.bookingId === id);
        return t ? seatWithType(t.seat) : id;
      };
      const problems = res.results
        .filter((r: ScanSyncResult) => r.result !== 'checked_in')
        .map((r) => ({
          seat: seatOf(r.bookingId),
          text:
            r.result === 'conflict'
              ? `already checked in by ${r.checkedInBy ?? 'someone'}${r.deviceLabel ? ` (${r.deviceLabel})` : ''} at ${formatDateTime(r.checkedInAt!)}`
              : `refused: ${r.error ?? r.code}`,
        }));
      setConflicts((c) => [...problems, ...c]);
      // A result still on screen for a ticket someone else let in first gives way to what the server says.
      const lost = new Map(res.results.filter((r) => r.result !== 'checked_in').map((r) => [r.bookingId, r]));
      setOutcome((o) => {
        const r = o.kind === 'valid' ? lost.get(o.bookingId) : undefined;
        if (o.kind !== 'valid' || !r) return o;
        return r.result === 'conflict'
          ? {
              kind: 'already',
              who: o.who,
              seat: o.seat,
              at: r.checkedInAt ?? '',
              by: r.checkedInBy ?? 'someone',
              device: r.deviceLabel ?? null,
            }
          : { kind: 'refused', title: 'NOT VALID', detail: r.error ?? 'Ticket is not valid' };
      });
      const sentIds = new Set(pending.map((p) => p.bookingId));
      setQueue(queueRef.current.filter((q) => !sentIds.has(q.bookingId)));
      setSent(
        `Sent ${pending.length} offline check-in${pending.length === 1 ? '' : 's'}` +
          (problems.length ? `, ${problems.length} conflict${problems.length === 1 ? '' : 's'}` : ''),
      );
      await refresh();
    } catch {
      // Still no network: the queue stays on the device and is sent on the next try.
    } finally {
      syncing.current = false;
    }
  }, [showtimeId, deviceLabel, setQueue, refresh]);

  useEffect(() => {
    void refresh();
    const timer = setInterval(() => {
      if (!navigator.onLine) return;
      void sync();
      void refresh();
    }, 10_000);
    return () => clearInterval(timer);
  }, [refresh, sync]);

  useEffect(() => {
    if (online) void sync();
  }, [online, sync]);

  /** Validates from the list on the device: no network needed. */
  const validateOffline = useCallback(
    (code: string, force: boolean) => {
      const current = listRef.current;
      const ticket = current?.tickets.find((t) => t.bookingId === code);
      if (!current || !ticket) {
        setOutcome({
          kind: 'refused',
          title: 'NOT ON THIS LIST',
          detail: 'No ticket for this showtime has this code (checked offline).',
        });
        return;
      }
      const seat = seatWithType(ticket.seat);
      if (ticket.status !== 'CONFIRMED') {
        setOutcome({
          kind: 'refused',
          title: 'NOT VALID',
          detail: ticket.status === 'REFUNDED' ? 'Ticket was refunded' : 'Ticket was cancelled',
        });
        return;
      }
      if (ticket.checkedInAt) {
        setOutcome({
          kind: 'already',
          who: ticket.name,
          seat,
          at: ticket.checkedInAt,
          by: ticket.checkedInBy ?? 'someone',
          device: null,
        });
        return;
      }
      const now = Date.now();
      const early = now < Date.parse(current.showtime.entryOpensAt);
      const late = now >= Date.parse(current.showtime.endsAt);
      if ((early || late) && !force) {
        setOutcome({
          kind: 'refused',
          title: early ? 'TOO EARLY' : 'TOO LATE',
          detail: early
            ? `Entry opens ${formatDateTime(current.showtime.entryOpensAt)}`
            : 'This showtime is over',
          force: code,
        });
        return;
      }
      const scannedAt = new Date().toISOString();
      setList(withTicket(current, code, { checkedInAt: scannedAt, checkedInBy: 'this device' }));
      setQueue([...queueRef.current, { bookingId: code, scannedAt, ...(force && { force: true }) }]);
      setOutcome({
        kind: 'valid',
        bookingId: code,
        who: ticket.name,
        seat,
        testMode: ticket.testMode,
        offline: true,
        forced: force,
      });
    },
    [setList, setQueue],
  );

  const validate = useCallback(
    async (code: string, force = false) => {
      setOutcome({ kind: 'validating' });
      if (!navigator.onLine) return validateOffline(code, force);
      try {
        const res = await scanTicket({ bookingId: code, showtimeId, deviceLabel, ...(force && { force }) });
        const seat = seatWithType(res.seat);
        if (listRef.current && res.checkedInAt)
          setList(
            withTicket(listRef.current, code, {
              checkedInAt: res.checkedInAt,
              checkedInBy: res.checkedInBy?.name ?? null,
            }),
          );
        if (res.alreadyCheckedIn)
          setOutcome({
            kind: 'already',
            who: `${res.user.name} · ${res.user.email}`,
            seat,
            at: res.checkedInAt ?? '',
            by: res.checkedInBy?.name ?? 'someone',
            device: res.deviceLabel ?? null,
          });
        else
          setOutcome({
            kind: 'valid',
            bookingId: code,
            who: `${res.user.name} · ${res.user.email}`,
            seat,
            testMode: Boolean(res.testMode),
            offline: false,
            forced: Boolean(res.forced),
          });
      } catch (err) {
        if (isNetworkFailure(err)) return validateOffline(code, force);
        const body = (err instanceof ApiError ? err.body : undefined) as ScanError | undefined;
        const code_ = err instanceof ApiError ? err.code : undefined;
        if (code_ === 'wrong_showtime' && body?.ticket)
          setOutcome({
            kind: 'refused',
            title: 'WRONG SHOWTIME',
            detail: `This ticket is for ${body.ticket.movie}, ${formatDateTime(body.ticket.startsAt)}, ${body.ticket.auditorium}.`,
          });
        else if (code_ === 'too_early' || code_ === 'too_late')
          setOutcome({
            kind: 'refused',
            title: code_ === 'too_early' ? 'TOO EARLY' : 'TOO LATE',
            detail:
              code_ === 'too_early' && body?.entryOpensAt
                ? `Entry opens ${formatDateTime(body.entryOpensAt)}`
                : 'This showtime is over',
            force: code,
          });
        else
          setOutcome({
            kind: 'refused',
            title: 'NOT VALID',
            detail: errorText(err, 'Invalid / unknown ticket'),
          });
      }
    },
    [showtimeId, deviceLabel, validateOffline, setList],
  );

  const onCode = useCallback(
    (code: string) => {
      // Empty reads and repeats of the last code are ignored until a different code is read.
      if (!code || code === lastCode.current) return;
      lastCode.current = code;
      setLastRead(code);
      void validate(code);
    },
    [validate],
  );

  const camera = useCameraCodes(videoRef, onCode);

  const submitManual = (e: FormEvent) => {
    e.preventDefault();
    const code = manual.trim();
    if (!code) return;
    lastCode.current = code;
    setLastRead(code);
    void validate(code);
  };

  const undo = async (bookingId: string, seat: string) => {
    const queued = queueRef.current.some((q) => q.bookingId === bookingId);
    try {
      if (queued) setQueue(queueRef.current.filter((q) => q.bookingId !== bookingId));
      else await undoScan(bookingId);
      if (listRef.current)
        setList(withTicket(listRef.current, bookingId, { checkedInAt: null, checkedInBy: null }));
      setOutcome({ kind: 'undone', seat });
    } catch (err) {
      setOutcome({
        kind: 'refused',
        title: 'UNDO FAILED',
        detail: errorText(err, 'The check-in could not be undone'),
      });
    }
  };

  const show = list?.showtime;
  return (
    <section className="mx-auto max-w-xl">
      <p className="mb-2">
        <Link to="/admin/scan">← Choose another showtime</Link>
      </p>
      <h1 className="page-title">Scan Tickets</h1>
      {show && (
        <div className="mb-3 space-y-2">
          <p className="text-lg">
            <strong>{show.movie}</strong> · {formatDateTime(show.startsAt)} · {show.auditorium}
          </p>
          <Counts counts={show.counts} />
        </div>
      )}
      {loadError && (
        <p role="alert" className="error">
          {loadError}
        </p>
      )}
      <p role="status" data-testid="network" className="mb-3 text-sm">
        {online ? 'Online' : 'Offline: checking tickets against the list on this device'}
        {queue.length > 0 && ` · ${queue.length} check-in${queue.length === 1 ? '' : 's'} waiting to be sent`}
        {sent && ` · ${sent}`}
        {' · '}Device: {deviceLabel}
      </p>

      <div className="card space-y-4">
        <div
          data-testid="scan-result"
          data-tone={tone(outcome)}
          aria-live="polite"
          className={`min-h-32 rounded-xl border-4 p-4 ${TONE_CLASS[tone(outcome)]}`}
        >
          {outcome.kind === 'validating' && <p className="text-2xl font-semibold">Validating...</p>}
          {outcome.kind === 'idle' && <p>Point the camera at a ticket&apos;s QR code.</p>}
          {outcome.kind === 'valid' && (
            <div className="space-y-1">
              {outcome.testMode && (
                <p data-testid="test-ticket">
                  <span className="text-5xl font-black">TEST</span>{' '}
                  <span className="text-base">paid in test mode: no money was taken</span>
                </p>
              )}
              <p className="text-4xl font-black">VALID ✅</p>
              <p className="text-xl font-semibold">{outcome.seat}</p>
              <p>{outcome.who}</p>
              {outcome.offline && <p>Checked offline: sent when the network is back.</p>}
              {outcome.forced && <p>Admitted outside the entry window.</p>}
              <button
                type="button"
                className="btn-secondary mt-2"
                onClick={() => void undo(outcome.bookingId, outcome.seat)}
              >
                Undo check-in
              </button>
            </div>
          )}
          {outcome.kind === 'already' && (
            <div className="space-y-1">
              <p className="text-4xl font-black">ALREADY CHECKED-IN ⚠️</p>
              <p className="text-xl font-semibold">{outcome.seat}</p>
              <p>{outcome.who}</p>
              <p>
                In since {outcome.at ? formatDateTime(outcome.at) : '—'}, by {outcome.by}
                {outcome.device && ` (${outcome.device})`}
              </p>
            </div>
          )}
          {outcome.kind === 'refused' && (
            <div className="space-y-1">
              <p className="text-4xl font-black">{outcome.title} ⛔</p>
              <p role="alert" className="text-xl">
                {outcome.detail}
              </p>
              {outcome.force && (
                <button
                  type="button"
                  className="btn-secondary mt-2"
                  onClick={() => void validate(outcome.force!, true)}
                >
                  Admit anyway
                </button>
              )}
            </div>
          )}
          {outcome.kind === 'undone' && (
            <p className="text-2xl font-semibold">Check-in undone: {outcome.seat}</p>
          )}
        </div>

        {conflicts.length > 0 && (
          <div
            className="rounded-xl border-4 border-red-400 bg-red-950 p-3 text-red-100"
            data-testid="conflicts"
          >
            <h2 className="text-lg font-bold">Conflicts after going back online</h2>
            <ul className="list-disc pl-5">
              {conflicts.map((c, i) => (
                <li key={i}>
                  {c.seat}: {c.text}
                </li>
              ))}
            </ul>
          </div>
        )}

        {camera.kind === 'unavailable' ? (
          <p role="alert" className="error">
            {camera.message} Type the booking id below to check a ticket in.
          </p>
        ) : (
          <div className="relative overflow-hidden rounded-xl border border-line bg-black">
            <video
              ref={videoRef}
              className="aspect-[4/3] w-full object-cover"
              muted
              playsInline
              aria-label="Camera view"
            />
            {camera.kind === 'starting' && (
              <p className="absolute inset-0 grid place-items-center text-sm text-slate-200">
                Starting camera…
              </p>
            )}
          </div>
        )}

        <p className="text-sm">
          <span className="muted">Last read: </span>
          <code data-testid="last-read" className="break-all">
            {lastRead || '—'}
          </code>
        </p>

        <form onSubmit={submitManual} className="flex flex-col gap-2 sm:flex-row sm:items-end">
          <label className="field flex-1">
            <span className="field-label">Booking id</span>
            <input
              className="input"
              value={manual}
              onChange={(e) => setManual(e.target.value)}
              placeholder="e.g. 3f6c…"
              autoComplete="off"
              spellCheck={false}
            />
          </label>
          <button type="submit" className="btn-primary" disabled={!manual.trim()}>
            Check in
          </button>
        </form>
      </div>
    </section>
  );
}
