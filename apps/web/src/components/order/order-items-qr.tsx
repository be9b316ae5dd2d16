import type { Order } from '@cinema/contract';
import { useTranslation } from '../../lib/i18n';
import { QrCode } from '../ui/qr-code';

/**
 * The order's QR code (its reference) for its food and drink (DESIGN §7.2): shown at the bar, it hands them over.
 * Nothing when the order has no item still paid for.
 */
export function OrderItemsQr({ order, withItems = false }: { order: Order; withItems?: boolean }) {
  const { t } = useTranslation('common');
  const items = (order.products ?? []).filter((p) => p.status === 'confirmed');
  if (items.length === 0) return null;
  return (
    <div className="flex flex-wrap items-center gap-4" data-order-qr={order.ref}>
      <QrCode value={order.ref} size={140} label={t('concessions.orderQr', { ref: order.ref })} />
      <div className="max-w-sm space-y-1 text-sm text-slate-200">
        {withItems && (
          <ul aria-label={t('concessions.itemsCaption')}>
            {items.map((i, n) => (
              <li key={i.lineId ?? n} className="font-semibold text-white">
                {i.quantity} × {i.name}
                {i.options.length > 0 && ` (${i.options.join(', ')})`}
              </li>
            ))}
          </ul>
        )}
        <p>{t('concessions.showQr', { ref: order.ref })}</p>
      </div>
    </div>
  );
}
