import type { TFunction } from '../../../lib/i18n';
import { attributeText } from '../../../components/ui/attribute-badges';
import { useState } from 'react';
import { Trans, useTranslation } from '../../../lib/i18n';
import { Link } from 'react-router';
import type { PriceCard, TicketType } from '@cinema/contract';
import { FormMessages } from '../../../components/ui/form-messages';
import { QueryStatus } from '../../../components/ui/query-status';
import { errorText } from '../../../lib/api-client';
import { formatMoney } from '../../../lib/format';
import { usePageHeading } from '../../../lib/use-page-heading';
import { useDeletePriceCard, usePriceCards } from '../api/price-cards';
import { useTicketTypes } from '../api/ticket-types';
import { weekdaysInWords } from '../lib/price-card-form';
import { PriceCardForm } from './price-card-form';
import { TicketTypesPanel } from './ticket-types-panel';

/** What a card charges, in a line: "Adult from $12.00 · Child from $8.00". */
function cardSummary(card: PriceCard, types: TicketType[], t: TFunction<'admin'>): string {
  return types
    .flatMap((type) => {
      const prices = card.prices.filter((p) => p.ticketTypeId === type.id).map((p) => p.priceCents);
      return prices.length
        ? [t('pricing.from', { type: type.name, price: formatMoney(Math.min(...prices)) })]
        : [];
    })
    .join(' · ');
}

/**
 * /admin/pricing: ticket types and price cards. A showtime is priced by the card chosen for it, else by the card
 * whose days and window hold its start (in the cinema's time zone), else at its own price.
 */
export function PricingScreen() {
  const { t } = useTranslation('admin');
  const heading = usePageHeading(t('pricing.title'));
  const cards = usePriceCards();
  const types = useTicketTypes();
  const remove = useDeletePriceCard();
  const [editing, setEditing] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const editedCard = cards.data?.find((c) => c.id === editing);

  const done = (text: string) => {
    setEditing(null);
    setNotice(text || null);
  };

  return (
    <section className="flex flex-col gap-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 ref={heading} tabIndex={-1} className="page-title mb-0 outline-none">
          {t('pricing.title')}
        </h1>
        <span className="flex gap-4 text-sm">
          <Link to="/admin/promo-codes">{t('dashboard.links.promoCodes')}</Link>
          <Link to="/admin">{t('common.backToAdmin')}</Link>
        </span>
      </div>
      <TicketTypesPanel />
      <section className="card space-y-4" aria-labelledby="price-cards-title">
        <h2 id="price-cards-title" className="text-lg font-semibold text-white">
          {t('pricing.cards')}
        </h2>
        <p className="text-sm text-slate-300">{t('pricing.cardsIntro')}</p>
        <QueryStatus query={cards} failure={t('pricing.loadFailed')} />
        {cards.data?.length === 0 && <p className="muted">{t('pricing.empty')}</p>}
        {cards.data && cards.data.length > 0 && (
          <ul aria-label={t('pricing.cards')} className="divide-y divide-line/60">
            {cards.data.map((c) => (
              <li key={c.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                <div className="min-w-0">
                  <p className="font-semibold text-white">{c.name}</p>
                  <p className="text-sm text-slate-200">
                    {weekdaysInWords(c.weekdays)} · {c.from}–{c.to}
                    {c.attribute && ` · ${t('attributes.attribute')} ${attributeText(c.attribute)}`}
                  </p>
                  <p className="text-sm text-slate-300">{cardSummary(c, types.data ?? [], t)}</p>
                </div>
                <span className="flex gap-3">
                  <button
                    type="button"
                    className="btn-secondary"
                    onClick={() => {
                      setNotice(null);
                      setError(null);
                      setEditing(c.id);
                    }}
                  >
                    <Trans
                      t={t}
                      i18nKey="pricing.edit"
                      values={{ name: c.name }}
                      components={{ sr: <span className="sr-only" /> }}
                    />
                  </button>
                  <button
                    type="button"
                    className="btn-danger"
                    disabled={remove.isPending}
                    onClick={() => {
                      setNotice(null);
                      setError(null);
                      if (!window.confirm(t('pricing.confirmDelete', { name: c.name }))) return;
                      remove.mutate(c.id, {
                        onSuccess: () => done(t('pricing.deleted', { name: c.name })),
                        onError: (err) => setError(errorText(err, t('pricing.deleteFailed'))),
                      });
                    }}
                  >
                    <Trans
                      t={t}
                      i18nKey="pricing.delete"
                      values={{ name: c.name }}
                      components={{ sr: <span className="sr-only" /> }}
                    />
                  </button>
                </span>
              </li>
            ))}
          </ul>
        )}
        <FormMessages error={error} notice={notice} />
      </section>
      {types.data && (
        <PriceCardForm
          // A fresh form for each card edited, and after each save.
          key={editedCard ? `edit-${editedCard.id}` : `new-${notice ?? ''}`}
          card={editedCard}
          ticketTypes={types.data}
          onDone={done}
        />
      )}
    </section>
  );
}
