import { useId, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { GiftCardLedger } from '@cinema/contract';
import { useTranslation } from '../../../lib/i18n';
import { formatDate, formatDateTime, formatMoneyChange, useFormatMoney } from '../../../lib/format';
import { QueryStatus } from '../../../components/ui/query-status';
import { useGiftCardLedger } from '../api/gift-cards';
import { VoidGiftCardDialog } from './void-gift-card-dialog';

/**
 * One card: its balance, expiry and who it is for, its ledger (who and when), and for admins a way to void it and links
 * to its orders.
 */
export function GiftCardDetails({ code, canVoid }: { code: string; canVoid: boolean }) {
  const { t } = useTranslation('admin');
  const ledger = useGiftCardLedger(code);
  const [voided, setVoided] = useState<string | null>(null);
  const id = useId();
  if (!ledger.data) return <QueryStatus query={ledger} failure={t('giftCards.loadFailed')} />;
  const { card } = ledger.data;
  return (
    <section aria-labelledby={`${id}-card`} className="card space-y-4" data-testid="gift-card">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={`${id}-card`} className="text-lg font-semibold text-white">
          {t('giftCards.card')} <span className="font-mono tracking-wider text-gold">{card.code}</span>
        </h2>
        <span className={card.status === 'active' ? 'text-emerald-300' : 'text-amber-200'}>
          {t(`giftCards.status.${card.status}`)}
        </span>
      </div>
      <CardFacts ledger={ledger.data} />
      {voided && (
        <p className="notice" role="status">
          {voided}
        </p>
      )}
      <Entries ledger={ledger.data} linkOrders={canVoid} />
      {canVoid && card.status !== 'voided' && (
        <VoidGiftCardDialog
          card={card}
          onVoided={() => setVoided(t('giftCards.voided', { code: card.code }))}
        />
      )}
    </section>
  );
}

function CardFacts({ ledger: { card } }: { ledger: GiftCardLedger }) {
  const { t } = useTranslation('admin');
  const formatMoney = useFormatMoney();
  const fact = (label: string, value: ReactNode, className?: string) => (
    <div className={className}>
      <dt className="text-xs text-slate-300">{label}</dt>
      <dd className="font-semibold text-white">{value}</dd>
    </div>
  );
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
      {fact(t('giftCards.balance'), formatMoney(card.balanceCents, card.currency))}
      {fact(t('giftCards.initial'), formatMoney(card.initialCents, card.currency))}
      {fact(t('giftCards.expires'), formatDate(card.expiresAt))}
      {fact(
        t('giftCards.order'),
        card.orderRef ? <Link to={`/admin/orders/${card.orderRef}`}>{card.orderRef}</Link> : '—',
      )}
      {card.recipientEmail &&
        fact(t('giftCards.recipient'), card.recipientEmail, 'col-span-2 break-all sm:col-span-4')}
    </dl>
  );
}

/**
 * The ledger, oldest first: each entry says what changed the balance, by how much, who did it and when, and the order
 * it belongs to (a link for admins, who open orders).
 */
function Entries({ ledger, linkOrders }: { ledger: GiftCardLedger; linkOrders: boolean }) {
  const { t } = useTranslation('admin');
  const formatMoney = useFormatMoney();
  const money = (cents: number) => formatMoney(cents, ledger.card.currency);
  return (
    <div>
      <h3 className="mb-2 font-semibold text-white">{t('giftCards.ledger')}</h3>
      {ledger.entries.length === 0 ? (
        <p className="muted">{t('giftCards.noEntries')}</p>
      ) : (
        <ol className="space-y-2" aria-label={t('giftCards.ledgerOf', { code: ledger.card.code })}>
          {ledger.entries.map((e, i) => (
            <li
              key={i}
              className="flex flex-wrap items-baseline gap-x-4 gap-y-1 border-b border-line/60 pb-2"
              data-kind={e.kind}
            >
              <span className="min-w-24 font-semibold text-white">{t(`giftCards.kind.${e.kind}`)}</span>
              <span className="tabular-nums">{formatMoneyChange(e.amountCents, ledger.card.currency)}</span>
              <span className="text-sm text-slate-300 tabular-nums">
                {t('giftCards.leaves', { balance: money(e.balanceAfterCents) })}
              </span>
              <span className="basis-full text-sm text-slate-300 sm:ml-auto sm:basis-auto">
                <time dateTime={e.at}>{formatDateTime(e.at)}</time> · {e.by ?? t('giftCards.bySystem')}
                {e.orderRef && (
                  <>
                    {' · '}
                    {linkOrders ? (
                      <Link to={`/admin/orders/${e.orderRef}`} className="underline">
                        {t('giftCards.inOrder', { ref: e.orderRef })}
                      </Link>
                    ) : (
                      t('giftCards.inOrder', { ref: e.orderRef })
                    )}
                  </>
                )}
              </span>
              {e.note && <span className="basis-full text-sm text-slate-200">{e.note}</span>}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
