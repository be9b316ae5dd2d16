import type { RefObject } from 'react';
import { Link } from 'react-router';
import type { StaffOrder } from '@cinema/contract';
import { Trans, useTranslation } from '../../../lib/i18n';
import { formatDate, useFormatMoney } from '../../../lib/format';
import { QrCode } from '../../../components/ui/qr-code';
import { paymentsText } from '../lib/order-text';
import '../../../components/ui/print-sheet.css';

/**
 * What the counter just sold: the order, what it held and how it was paid (gift cards first, then cash or the card
 * terminal); the gift cards it sold, ready to print.
 */
export function SaleDone({
  order,
  canOpen,
  focusRef,
}: {
  order: StaffOrder;
  canOpen: boolean;
  focusRef: RefObject<HTMLDivElement | null>;
}) {
  const { t } = useTranslation('admin');
  const formatMoney = useFormatMoney();
  const count = (kind: string) => order.lines.filter((l) => l.kind === kind).length;
  const items = (order.products ?? []).reduce((sum, p) => sum + p.quantity, 0);
  const what = [
    count('TICKET') > 0 && t('boxOffice.ticketCount', { count: count('TICKET') }),
    count('GIFT_CARD') > 0 && t('boxOffice.giftCardCount', { count: count('GIFT_CARD') }),
    items > 0 && t('boxOffice.itemCount', { count: items }),
  ]
    .filter(Boolean)
    .join(', ');
  const payments = paymentsText(order, (cents) => formatMoney(cents, order.currency));
  const cards = order.lines.filter((l) => l.kind === 'GIFT_CARD' && l.giftCard?.code);
  return (
    <>
      <div ref={focusRef} tabIndex={-1} className="notice print-hidden mb-4" role="status">
        <Trans
          t={t}
          i18nKey="boxOffice.sold"
          values={{ ref: order.ref, what, payments }}
          components={{ strong: <strong /> }}
        />{' '}
        {canOpen && <Link to={`/admin/orders/${order.ref}`}>{t('boxOffice.openOrder')}</Link>}
      </div>
      {cards.length > 0 && (
        <section className="print-sheet mb-6" aria-label={t('counterGiftCards.printTitle')}>
          <div className="print-hidden mb-3 flex flex-wrap items-center justify-between gap-2">
            <h2 className="text-lg font-semibold text-white">{t('counterGiftCards.printTitle')}</h2>
            <button type="button" className="btn-primary" onClick={() => window.print()}>
              {t('counterGiftCards.print', { count: cards.length })}
            </button>
          </div>
          <ul className="ticket-grid print-two-up grid gap-4 sm:grid-cols-2">
            {cards.map((line) => {
              const code = line.giftCard!.code!;
              return (
                <li
                  key={code}
                  className="ticket-card card flex flex-wrap items-center gap-4"
                  data-gift-card-code={code}
                >
                  <QrCode value={code} size={140} label={t('counterGiftCards.qrFor', { code })} />
                  <div className="min-w-0 space-y-1">
                    <p className="text-sm text-slate-300">{t('counterGiftCards.printedTitle')}</p>
                    <p className="text-2xl font-bold text-gold">
                      {formatMoney(line.priceCents, order.currency)}
                    </p>
                    <p className="font-mono text-lg font-semibold tracking-wider break-words text-white">
                      {code}
                    </p>
                    {line.giftCard?.expiresAt && (
                      <p className="text-sm">
                        {t('counterGiftCards.validUntil', { date: formatDate(line.giftCard.expiresAt) })}
                      </p>
                    )}
                    {line.giftCard?.recipientEmail && (
                      <p className="text-sm">
                        {t('counterGiftCards.emailedTo', { email: line.giftCard.recipientEmail })}
                      </p>
                    )}
                    <p className="text-xs text-slate-300">{t('counterGiftCards.useIt')}</p>
                  </div>
                </li>
              );
            })}
          </ul>
        </section>
      )}
    </>
  );
}
