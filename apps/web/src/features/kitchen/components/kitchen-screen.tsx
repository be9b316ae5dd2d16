import { lazy, Suspense, useEffect, useState } from 'react';
import { Link } from 'react-router';
import type { ConcessionStatusBody, KitchenOrder } from '@cinema/contract';
import { FormMessages } from '../../../components/ui/form-messages';
import { CheckIdBadge } from '../../../components/ui/item-badges';
import { QueryStatus } from '../../../components/ui/query-status';
import { errorText } from '../../../lib/api-client';
import { formatTime } from '../../../lib/format';
import { useTranslation } from '../../../lib/i18n';
import { seatName } from '../../../lib/seat-text';
import { useSession } from '../../../lib/session';
import { usePageHeading } from '../../../lib/use-page-heading';
import { useKitchen, useSetConcessionStatus } from '../api/kitchen';
import { useKitchenUpdates } from '../hooks/use-kitchen-updates';

/** A reference as typed or scanned, compared without case, spaces or its dash. */
const bare = (ref: string) => ref.toUpperCase().replace(/[^0-9A-Z]/g, '');

/** Handing over: brought to the seat, or collected at the bar. */
const handOverStatus = (order?: KitchenOrder): ConcessionStatusBody['status'] =>
  order?.fulfilment === 'SEAT' ? 'delivered' : 'collected';

// The camera and its QR decoder load only when staff open the camera.
const KitchenCamera = lazy(() => import('./kitchen-camera').then((m) => ({ default: m.KitchenCamera })));

const COLUMNS = [
  { key: 'preparing', statuses: ['preparing'] },
  { key: 'ready', statuses: ['ready'] },
  { key: 'handedOver', statuses: ['collected', 'delivered'] },
] as const;

/** The time now, again every 30 s: what is late changes with the clock, not only with the orders. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

function KitchenTicket({
  order,
  busy,
  now,
  onStatus,
}: {
  order: KitchenOrder;
  busy: boolean;
  now: number;
  onStatus: (order: KitchenOrder, status: ConcessionStatusBody['status']) => void;
}) {
  const { t } = useTranslation('admin');
  const id = `kitchen-${order.ref}`;
  // A seat delivery whose time has come and gone, still not handed over.
  const late = !order.handedOverAt && !!order.deliverAt && Date.parse(order.deliverAt) < now;
  return (
    <li>
      <article
        aria-labelledby={id}
        data-ref={order.ref}
        className={`card space-y-2 ${order.checkId && !order.handedOverAt ? 'border-2 border-amber-300' : ''}`}
      >
        <h3 id={id} className="flex flex-wrap items-center gap-1 text-lg font-semibold text-white">
          <span className="font-mono">{order.ref}</span>
          {order.checkId && <CheckIdBadge />}
          {late && (
            <span className="ml-2 rounded bg-red-700 px-1.5 py-px text-xs leading-tight font-semibold text-white">
              {t('kitchen.late')}
            </span>
          )}
        </h3>
        <p className="text-sm text-slate-100">
          {order.fulfilment === 'SEAT' && order.seat && order.deliverAt
            ? t('kitchen.toSeat', {
                time: formatTime(order.deliverAt),
                hall: order.seat.auditorium,
                seat: seatName(order.seat),
              })
            : t('kitchen.collect')}
        </p>
        {(order.movie || order.customerName) && (
          <p className="text-xs text-slate-300">
            {[
              order.movie && order.startsAt ? `${order.movie} · ${formatTime(order.startsAt)}` : null,
              order.customerName,
            ]
              .filter(Boolean)
              .join(' · ')}
          </p>
        )}
        <ul className="space-y-1 text-sm" aria-label={t('kitchen.itemsOf', { ref: order.ref })}>
          {order.items.map((item, i) => (
            <li key={i} className="text-white">
              <span className="font-semibold">{item.quantity} ×</span> {item.name}
              {item.options.length > 0 && (
                <span className="text-slate-300"> ({item.options.join(', ')})</span>
              )}
              {item.ageRestricted && <CheckIdBadge />}
            </li>
          ))}
        </ul>
        {order.handedOverAt ? (
          <p className="text-xs text-slate-300">
            {t(`kitchen.handedOverAt.${order.status === 'delivered' ? 'delivered' : 'collected'}`, {
              time: formatTime(order.handedOverAt),
              by: order.handedOverBy ?? '—',
            })}
          </p>
        ) : (
          <div className="flex flex-wrap gap-2">
            {order.status === 'preparing' && (
              <button
                type="button"
                className="btn-secondary"
                disabled={busy}
                onClick={() => onStatus(order, 'ready')}
              >
                {t('kitchen.markReady', { ref: order.ref })}
              </button>
            )}
            <button
              type="button"
              className="btn-primary"
              disabled={busy}
              onClick={() => onStatus(order, handOverStatus(order))}
            >
              {order.checkId
                ? t('kitchen.handOverChecked', { ref: order.ref })
                : t('kitchen.handOver', { ref: order.ref })}
            </button>
          </div>
        )}
      </article>
    </li>
  );
}

/**
 * /admin/kitchen (staff, DESIGN §7.2): the bar's live preparation screen. Paid orders with food and drink arrive at
 * once (Socket.IO) in "To prepare", move to "Ready" and are handed over, by their buttons or by the order's reference
 * typed or scanned from its QR code (a scanner that types works in the field). Seat deliveries come by when they are
 * due, with hall, row and seat; age-restricted items say "Check ID" and are handed over only once it was checked.
 */
export function KitchenScreen() {
  const { t } = useTranslation('admin');
  const heading = usePageHeading(t('kitchen.title'));
  const { user } = useSession();
  const kitchen = useKitchen();
  const { live } = useKitchenUpdates();
  const now = useNow();
  const setStatus = useSetConcessionStatus();
  const [ref, setRef] = useState('');
  const [checking, setChecking] = useState<KitchenOrder | null>(null);
  const [camera, setCamera] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const orders = kitchen.data?.orders ?? [];

  const send = (target: string, status: ConcessionStatusBody['status']) => {
    setNotice(null);
    setError(null);
    setChecking(null);
    setStatus.mutate(
      { ref: target, status },
      {
        onSuccess: (order) => {
          // Only the reference this answered is cleared: one typed or scanned meanwhile (a ticket's own button was
          // pressed, or the next order scanned while this one was sent) stays for its own hand-over.
          setRef((typed) => (bare(typed) === bare(target) ? '' : typed));
          setNotice(
            status === 'ready'
              ? t('kitchen.madeReady', { ref: order.ref })
              : t('kitchen.handedOver', { ref: order.ref }),
          );
        },
        onError: (err) => setError(errorText(err, t('kitchen.failed'))),
      },
    );
  };
  // An order with age-restricted items is handed over only once staff say they checked ID.
  const handOver = (order: KitchenOrder | undefined, typed: string) => {
    // An order's reference is 7 letters and digits (K7Q-4MX2); anything else (a ticket's QR code) is not one.
    if (!order && bare(typed).length !== 7) {
      setNotice(null);
      setChecking(null);
      setError(t('kitchen.notAnOrder', { code: typed.slice(0, 40) }));
      return;
    }
    if (order?.checkId && !order.handedOverAt) {
      setNotice(null);
      setError(null);
      setChecking(order);
      return;
    }
    send(order?.ref ?? typed, handOverStatus(order));
  };

  return (
    <section className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 ref={heading} tabIndex={-1} className="page-title mb-0 outline-none">
          {t('kitchen.title')}
        </h1>
        <span className="flex gap-4 text-sm">
          {user?.role === 'ADMIN' && <Link to="/admin/concessions">{t('dashboard.links.concessions')}</Link>}
          <Link to="/admin/box-office">{t('dashboard.links.boxOffice')}</Link>
        </span>
      </div>
      <p className="text-sm text-slate-300">{t('kitchen.networkNote')}</p>
      <p role="status" className={`text-sm font-semibold ${live ? 'text-emerald-300' : 'text-amber-200'}`}>
        {live ? t('kitchen.live') : t('kitchen.notLive')}
      </p>

      <form
        className="card flex flex-wrap items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          const typed = ref.trim();
          if (!bare(typed)) return;
          handOver(
            orders.find((o) => bare(o.ref) === bare(typed)),
            typed,
          );
        }}
      >
        <label className="field min-w-0 flex-1">
          <span className="field-label">{t('kitchen.reference')}</span>
          <input
            className="input font-mono uppercase"
            value={ref}
            onChange={(e) => setRef(e.target.value)}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            placeholder="K7Q-4MX2"
            maxLength={40}
          />
        </label>
        <button type="submit" className="btn-primary" disabled={setStatus.isPending || !bare(ref)}>
          {t('kitchen.handOverTyped')}
        </button>
        <button
          type="button"
          className="btn-secondary"
          aria-pressed={camera}
          onClick={() => setCamera((on) => !on)}
        >
          {t('kitchen.camera')}
        </button>
        <p className="w-full text-xs text-slate-300">{t('kitchen.referenceHint')}</p>
        {camera && (
          <div className="w-full">
            <Suspense fallback={<p className="text-sm text-slate-300">{t('scanner.starting')}</p>}>
              <KitchenCamera
                onCode={(code) => {
                  setRef(code);
                  handOver(
                    orders.find((o) => bare(o.ref) === bare(code)),
                    code,
                  );
                }}
              />
            </Suspense>
          </div>
        )}
      </form>

      {checking && (
        <div role="alert" className="card space-y-2 border-2 border-amber-300">
          <p className="font-semibold text-white">
            {t('kitchen.checkIdFirst', { ref: checking.ref })} <CheckIdBadge />
          </p>
          <ul className="text-sm text-slate-100">
            {checking.items
              .filter((i) => i.ageRestricted)
              .map((i, n) => (
                <li key={n}>
                  {i.quantity} × {i.name}
                </li>
              ))}
          </ul>
          <div className="flex flex-wrap gap-2">
            <button
              type="button"
              className="btn-primary"
              disabled={setStatus.isPending}
              onClick={() => send(checking.ref, handOverStatus(checking))}
            >
              {t('kitchen.idChecked', { ref: checking.ref })}
            </button>
            <button type="button" className="btn-secondary" onClick={() => setChecking(null)}>
              {t('kitchen.notNow')}
            </button>
          </div>
        </div>
      )}
      <FormMessages error={error} notice={notice} />
      <QueryStatus query={kitchen} failure={t('kitchen.loadFailed')} />

      {kitchen.data && (
        <div className="grid gap-4 md:grid-cols-3">
          {COLUMNS.map((column) => {
            const own = orders.filter((o) => (column.statuses as readonly string[]).includes(o.status));
            const headingId = `kitchen-column-${column.key}`;
            return (
              <section key={column.key} aria-labelledby={headingId} className="min-w-0 space-y-2">
                <h2 id={headingId} className="text-lg font-semibold text-white">
                  {t(`kitchen.columns.${column.key}`)} <span className="text-slate-300">({own.length})</span>
                </h2>
                {own.length === 0 ? (
                  <p className="text-sm text-slate-300">{t(`kitchen.empty.${column.key}`)}</p>
                ) : (
                  <ul className="space-y-3">
                    {own.map((order) => (
                      <KitchenTicket
                        key={order.ref}
                        order={order}
                        busy={setStatus.isPending}
                        now={now}
                        onStatus={(o, status) => send(o.ref, status)}
                      />
                    ))}
                  </ul>
                )}
              </section>
            );
          })}
        </div>
      )}
    </section>
  );
}
