import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { IdCheck } from '../../../components/ui/id-check';
import { useTranslation } from '../../../lib/i18n';
import { Link, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { judgeAdmission, normalizeGiftCardCode } from '@cinema/contract/constants';
import type { DoorListResponse, ScanError, ScanSyncResult } from '@cinema/contract';
import { ApiError, errorText } from '../../../lib/api-client';
import { seatWithType } from '../../../lib/seat-text';
import { formatDateTime } from '../../../lib/format';
import { useSession } from '../../../lib/session';
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
import { useCameraCodes } from '../../../components/camera/use-camera-codes';
import { CameraView } from '../../../components/camera/camera-view';

/** /admin/scan: first the showtime being admitted, then the door for it. */
export function ScannerPage() {
  const [params] = useSearchParams();
  const showtimeId = params.get('showtime');
  return showtimeId ? <DoorScreen key={showtimeId} showtimeId={showtimeId} /> : <ShowtimePicker />;
}

function DeviceLabelField() {
  const { t } = useTranslation('admin');
  const [label, setLabel] = useState(loadDeviceLabel);
  return (
    <label className="field">
      <span className="field-label">{t('scanner.deviceLabel')}</span>
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
  const { t } = useTranslation('admin');
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
      {stat(t('scanner.sold'), counts.sold, 'count-sold')}
      {stat(t('scanner.in'), counts.checkedIn, 'count-in')}
      {stat(t('scanner.toCome'), counts.toCome, 'count-to-come')}
    </dl>
  );
}

/**
 * The spec's 'Back' to Manage Showtimes (admins: staff cannot open that screen) and, while admitting a showtime,
 * the way back to choosing another.
 */
function BackLinks({ another = false }: { another?: boolean }) {
  const { t } = useTranslation('admin');
  const { user } = useSession();
  if (user?.role !== 'ADMIN' && !another) return null;
  return (
    <p className="mb-2 flex flex-wrap gap-x-4">
      {user?.role === 'ADMIN' && <Link to="/admin/showtimes">{t('scanner.back')}</Link>}
      {another && <Link to="/admin/scan">{t('scanner.another')}</Link>}
    </p>
  );
}

/** The showtimes the door may admit, those whose entry window is open first. */
function ShowtimePicker() {
  const { t } = useTranslation('admin');
  const showtimes = useQuery({
    queryKey: ['door-showtimes'],
    queryFn: doorShowtimes,
    refetchInterval: 30_000,
  });
  return (
    <section className="mx-auto max-w-xl">
      <BackLinks />
      <h1 className="page-title">{t('scanner.title')}</h1>
      <div className="card mb-4">
        <DeviceLabelField />
      </div>
      <h2 className="mb-2 text-lg font-semibold">{t('scanner.choose')}</h2>
      {showtimes.isPending && <p className="muted">{t('scanner.loadingShowtimes')}</p>}
      {showtimes.isError && (
        <p role="alert" className="error">
          {errorText(showtimes.error, t('common.failedShowtimes'))}
        </p>
      )}
      {showtimes.data?.showtimes.length === 0 && <p className="card">{t('scanner.none')}</p>}
      <ul className="space-y-2">
        {showtimes.data?.showtimes.map((s) => (
          <li key={s.id}>
            <Link
              to={`/admin/scan?showtime=${s.id}`}
              className="card block space-y-1 no-underline hover:border-accent"
            >
              <span className="block text-lg font-bold">{s.movie}</span>
              <IdCheck minAge={s.minAge} className="text-sm" />
              <span className="block">
                {formatDateTime(s.startsAt)} · {s.auditorium}
              </span>
              <span className={`block text-sm ${s.entryOpen ? 'text-emerald-300' : 'text-slate-300'}`}>
                {s.entryOpen
                  ? t('scanner.entryOpen')
                  : t('scanner.entryOpens', { at: formatDateTime(s.entryOpensAt) })}{' '}
                ·{' '}
                {t('scanner.counts', {
                  sold: s.counts.sold,
                  in: s.counts.checkedIn,
                  toCome: s.counts.toCome,
                })}
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
  const { t } = useTranslation('admin');
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
        fresh = withTicket(fresh, q.bookingId, {
          checkedInAt: q.scannedAt,
          checkedInBy: t('scanner.thisDevice'),
        });
      setList(fresh);
      setLoadError('');
    } catch (err) {
      if (!isNetworkFailure(err)) setLoadError(errorText(err, t('scanner.listFailed')));
    }
  }, [showtimeId, setList, t]);

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
              ? r.deviceLabel
                ? t('scanner.conflictOn', {
                    by: r.checkedInBy ?? t('scanner.someone'),
                    device: r.deviceLabel,
                    at: formatDateTime(r.checkedInAt!),
                  })
                : t('scanner.conflict', {
                    by: r.checkedInBy ?? t('scanner.someone'),
                    at: formatDateTime(r.checkedInAt!),
                  })
              : t('scanner.refusedSync', { reason: r.error ?? r.code }),
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
              by: r.checkedInBy ?? t('scanner.someone'),
              device: r.deviceLabel ?? null,
            }
          : { kind: 'refused', title: t('scanner.notValid'), detail: r.error ?? t('scanner.ticketNotValid') };
      });
      const sentIds = new Set(pending.map((p) => p.bookingId));
      setQueue(queueRef.current.filter((q) => !sentIds.has(q.bookingId)));
      setSent(
        problems.length
          ? t('scanner.sentWithConflicts', {
              sent: t('scanner.sent', { count: pending.length }),
              conflicts: t('scanner.conflictCount', { count: problems.length }),
            })
          : t('scanner.sent', { count: pending.length }),
      );
      await refresh();
    } catch {
      // Still no network: the queue stays on the device and is sent on the next try.
    } finally {
      syncing.current = false;
    }
  }, [showtimeId, deviceLabel, setQueue, refresh, t]);

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
          title: t('scanner.notOnList'),
          detail: t('scanner.notOnListDetail'),
        });
        return;
      }
      const seat = seatWithType(ticket.seat);
      if (ticket.status !== 'CONFIRMED') {
        setOutcome({
          kind: 'refused',
          title: t('scanner.notValid'),
          detail: ticket.status === 'REFUNDED' ? t('scanner.refunded') : t('scanner.cancelled'),
        });
        return;
      }
      if (ticket.checkedInAt) {
        setOutcome({
          kind: 'already',
          who: ticket.name,
          seat,
          at: ticket.checkedInAt,
          by: ticket.checkedInBy ?? t('scanner.someone'),
          device: null,
        });
        return;
      }
      // The server's rule, on the only clock the device has; the server judges again on its own when this is sent.
      const admission = judgeAdmission({
        window: {
          opensAt: Date.parse(current.showtime.entryOpensAt),
          closesAt: Date.parse(current.showtime.endsAt),
        },
        receivedAt: Date.now(),
        force,
      });
      if (!admission.admit) {
        const early = admission.refusal === 'too_early';
        setOutcome({
          kind: 'refused',
          title: early ? t('scanner.tooEarly') : t('scanner.tooLate'),
          detail: early
            ? t('scanner.entryOpens', { at: formatDateTime(current.showtime.entryOpensAt) })
            : t('scanner.over'),
          force: code,
        });
        return;
      }
      const scannedAt = new Date(admission.at).toISOString();
      setList(withTicket(current, code, { checkedInAt: scannedAt, checkedInBy: t('scanner.thisDevice') }));
      setQueue([...queueRef.current, { bookingId: code, scannedAt, ...(force && { force: true }) }]);
      setOutcome({
        kind: 'valid',
        bookingId: code,
        who: ticket.name,
        seat,
        testMode: ticket.testMode,
        offline: true,
        forced: admission.forced,
      });
    },
    [setList, setQueue, t],
  );

  const validate = useCallback(
    async (code: string, force = false) => {
      // A gift card's QR: the door never redeems one (DESIGN §7.3); only the box office and checkout do, online.
      if (normalizeGiftCardCode(code)) {
        setOutcome({ kind: 'refused', title: t('scanner.giftCard'), detail: t('scanner.giftCardDetail') });
        return;
      }
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
            by: res.checkedInBy?.name ?? t('scanner.someone'),
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
            title: t('scanner.wrongShowtime'),
            detail: t('scanner.wrongShowtimeDetail', {
              movie: body.ticket.movie,
              startsAt: formatDateTime(body.ticket.startsAt),
              hall: body.ticket.auditorium,
            }),
          });
        else if (code_ === 'too_early' || code_ === 'too_late')
          setOutcome({
            kind: 'refused',
            title: code_ === 'too_early' ? t('scanner.tooEarly') : t('scanner.tooLate'),
            detail:
              code_ === 'too_early' && body?.entryOpensAt
                ? t('scanner.entryOpens', { at: formatDateTime(body.entryOpensAt) })
                : t('scanner.over'),
            force: code,
          });
        else
          setOutcome({
            kind: 'refused',
            title: t('scanner.notValid'),
            detail: errorText(err, t('scanner.invalid')),
          });
      }
    },
    [showtimeId, deviceLabel, validateOffline, setList, t],
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
        title: t('scanner.undoFailed'),
        detail: errorText(err, t('scanner.undoFailedDetail')),
      });
    }
  };

  const show = list?.showtime;
  return (
    <section className="mx-auto max-w-xl">
      <BackLinks another />
      <h1 className="page-title">{t('scanner.title')}</h1>
      {show && (
        <div className="mb-3 space-y-2">
          <p className="text-lg">
            <strong>{show.movie}</strong> · {formatDateTime(show.startsAt)} · {show.auditorium}
          </p>
          <IdCheck minAge={show.minAge} className="text-lg" />
          <Counts counts={show.counts} />
        </div>
      )}
      {loadError && (
        <p role="alert" className="error">
          {loadError}
        </p>
      )}
      <p role="status" data-testid="network" className="mb-3 text-sm">
        {online ? t('scanner.online') : t('scanner.offline')}
        {queue.length > 0 && t('scanner.waiting', { count: queue.length })}
        {sent && ` · ${sent}`}
        {t('scanner.device', { label: deviceLabel })}
      </p>

      <div className="card space-y-4">
        <div
          data-testid="scan-result"
          data-tone={tone(outcome)}
          aria-live="polite"
          className={`min-h-32 rounded-xl border-4 p-4 ${TONE_CLASS[tone(outcome)]}`}
        >
          {outcome.kind === 'validating' && (
            <p className="text-2xl font-semibold">{t('scanner.validating')}</p>
          )}
          {outcome.kind === 'idle' && <p>{t('scanner.point')}</p>}
          {outcome.kind === 'valid' && (
            <div className="space-y-1">
              {outcome.testMode && (
                <p data-testid="test-ticket">
                  <span className="text-5xl font-black">{t('order.test')}</span>{' '}
                  <span className="text-base">{t('scanner.testPaid')}</span>
                </p>
              )}
              <p className="text-4xl font-black">{t('scanner.valid')}</p>
              <IdCheck minAge={show?.minAge} className="text-xl" />
              <p className="text-xl font-semibold">{outcome.seat}</p>
              <p>{outcome.who}</p>
              {outcome.offline && <p>{t('scanner.checkedOffline')}</p>}
              {outcome.forced && <p>{t('scanner.forced')}</p>}
              <button
                type="button"
                className="btn-secondary mt-2"
                onClick={() => void undo(outcome.bookingId, outcome.seat)}
              >
                {t('scanner.undo')}
              </button>
            </div>
          )}
          {outcome.kind === 'already' && (
            <div className="space-y-1">
              <p className="text-4xl font-black">{t('scanner.already')}</p>
              <p className="text-xl font-semibold">{outcome.seat}</p>
              <p>{outcome.who}</p>
              <p>
                {outcome.device
                  ? t('scanner.inSinceOn', {
                      at: outcome.at ? formatDateTime(outcome.at) : '—',
                      by: outcome.by,
                      device: outcome.device,
                    })
                  : t('scanner.inSince', {
                      at: outcome.at ? formatDateTime(outcome.at) : '—',
                      by: outcome.by,
                    })}
              </p>
            </div>
          )}
          {outcome.kind === 'refused' && (
            <div className="space-y-1">
              <p className="text-4xl font-black">{t('scanner.refusedTitle', { title: outcome.title })}</p>
              <p role="alert" className="text-xl">
                {outcome.detail}
              </p>
              {outcome.force && (
                <button
                  type="button"
                  className="btn-secondary mt-2"
                  onClick={() => void validate(outcome.force!, true)}
                >
                  {t('scanner.admitAnyway')}
                </button>
              )}
            </div>
          )}
          {outcome.kind === 'undone' && (
            <p className="text-2xl font-semibold">{t('scanner.undone', { seat: outcome.seat })}</p>
          )}
        </div>

        {conflicts.length > 0 && (
          <div
            className="rounded-xl border-4 border-red-400 bg-red-950 p-3 text-red-100"
            data-testid="conflicts"
          >
            <h2 className="text-lg font-bold">{t('scanner.conflicts')}</h2>
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
            {t(`scanner.camera.${camera.problem}`)} {t('scanner.typeId')}
          </p>
        ) : (
          <CameraView
            videoRef={videoRef}
            label={t('scanner.cameraView')}
            starting={camera.kind === 'starting' ? t('scanner.starting') : null}
          />
        )}

        <p className="text-sm">
          <span className="muted">{t('scanner.lastRead')}</span>
          <code data-testid="last-read" className="break-all">
            {lastRead || '—'}
          </code>
        </p>

        <form onSubmit={submitManual} className="flex flex-col gap-2 sm:flex-row sm:items-end">
          <label className="field flex-1">
            <span className="field-label">{t('scanner.bookingId')}</span>
            <input
              className="input"
              value={manual}
              onChange={(e) => setManual(e.target.value)}
              placeholder={t('scanner.bookingIdPlaceholder')}
              autoComplete="off"
              spellCheck={false}
            />
          </label>
          <button type="submit" className="btn-primary" disabled={!manual.trim()}>
            {t('scanner.checkIn')}
          </button>
        </form>
        <p className="text-sm text-slate-300">{t('scanner.noGiftCards')}</p>
      </div>
    </section>
  );
}
