import { useState } from 'react';
import { Link } from 'react-router';
import { formatMoney } from '@cinema/contract/constants';
import type { PriceCard, TicketType } from '@cinema/contract';
import { FormMessages } from '../../../components/ui/form-messages';
import { QueryStatus } from '../../../components/ui/query-status';
import { errorText } from '../../../lib/api-client';
import { usePageHeading } from '../../../lib/use-page-heading';
import { useDeletePriceCard, usePriceCards } from '../api/price-cards';
import { useTicketTypes } from '../api/ticket-types';
import { weekdaysInWords } from '../lib/price-card-form';
import { PriceCardForm } from './price-card-form';
import { TicketTypesPanel } from './ticket-types-panel';

/** What a card charges, in a line: "Adult from $12.00 · Child from $8.00". */
function cardSummary(card: PriceCard, types: TicketType[]): string {
  return types
    .flatMap((t) => {
      const prices = card.prices.filter((p) => p.ticketTypeId === t.id).map((p) => p.priceCents);
      return prices.length ? [`${t.name} from ${formatMoney(Math.min(...prices))}`] : [];
    })
    .join(' · ');
}

/**
 * /admin/pricing: ticket types and price cards. A showtime is priced by the card chosen for it, else by the card
 * whose days and window hold its start (in the cinema's time zone), else at its own price.
 */
export function PricingScreen() {
  const heading = usePageHeading('Pricing');
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
          Pricing
        </h1>
        <span className="flex gap-4 text-sm">
          <Link to="/admin/promo-codes">Promo codes</Link>
          <Link to="/admin">← Admin</Link>
        </span>
      </div>
      <TicketTypesPanel />
      <section className="card space-y-4" aria-labelledby="price-cards-title">
        <h2 id="price-cards-title" className="text-lg font-semibold text-white">
          Price cards
        </h2>
        <p className="text-sm text-slate-300">
          A showtime uses the card chosen for it, or else the card whose days and hours hold its start; with
          no card every seat costs the showtime’s own price.
        </p>
        <QueryStatus query={cards} failure="Failed to load price cards" />
        {cards.data?.length === 0 && <p className="muted">No price cards yet.</p>}
        {cards.data && cards.data.length > 0 && (
          <ul aria-label="Price cards" className="divide-y divide-line/60">
            {cards.data.map((c) => (
              <li key={c.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                <div className="min-w-0">
                  <p className="font-semibold text-white">{c.name}</p>
                  <p className="text-sm text-slate-200">
                    {weekdaysInWords(c.weekdays)} · {c.from}–{c.to}
                  </p>
                  <p className="text-sm text-slate-300">{cardSummary(c, types.data ?? [])}</p>
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
                    Edit<span className="sr-only"> {c.name}</span>
                  </button>
                  <button
                    type="button"
                    className="btn-danger"
                    disabled={remove.isPending}
                    onClick={() => {
                      setNotice(null);
                      setError(null);
                      if (!window.confirm(`Delete the price card ${c.name}?`)) return;
                      remove.mutate(c.id, {
                        onSuccess: () => done(`Deleted ${c.name}.`),
                        onError: (err) => setError(errorText(err, 'Failed to delete the price card')),
                      });
                    }}
                  >
                    Delete<span className="sr-only"> {c.name}</span>
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
