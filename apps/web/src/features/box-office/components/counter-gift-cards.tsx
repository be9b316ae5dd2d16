import { useId, useState, type FormEvent } from 'react';
import type { GiftCardBalance, GiftCardPurchase } from '@cinema/contract';
import { giftCardAmounts, minorToText, normalizeGiftCardCode, toMinor } from '@cinema/contract/constants';
import { useTranslation } from '../../../lib/i18n';
import { api, errorText } from '../../../lib/api-client';
import { formatDate, useFormatMoney } from '../../../lib/format';
import { useCinemaCurrency } from '../../../lib/settings';
import { FormMessages } from '../../../components/ui/form-messages';

/** Gift cards to sell in this sale (DESIGN §7.3): an amount within the limits, and an email to send the card to. */
export function GiftCardsToSell({
  cards,
  onChange,
}: {
  cards: GiftCardPurchase[];
  onChange: (cards: GiftCardPurchase[]) => void;
}) {
  const { t } = useTranslation('admin');
  const formatMoney = useFormatMoney();
  const currency = useCinemaCurrency();
  const { presets, minCents, maxCents } = giftCardAmounts(currency);
  const [amount, setAmount] = useState('');
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const id = useId();

  function add(e: FormEvent) {
    e.preventDefault();
    const amountCents = toMinor(amount.trim(), currency);
    if (amountCents === null || amountCents < minCents || amountCents > maxCents) {
      setError(t('counterGiftCards.amountRange', { min: formatMoney(minCents), max: formatMoney(maxCents) }));
      return;
    }
    const recipientEmail = email.trim();
    if (recipientEmail && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(recipientEmail)) {
      setError(t('counterGiftCards.badEmail'));
      return;
    }
    setError(null);
    onChange([...cards, { amountCents, ...(recipientEmail && { recipientEmail }) }]);
    setAmount('');
    setEmail('');
  }

  return (
    <section aria-labelledby={`${id}-title`} className="space-y-2">
      <h3 id={`${id}-title`} className="font-semibold text-white">
        {t('counterGiftCards.sellTitle')}
      </h3>
      <form onSubmit={add} className="space-y-2" noValidate>
        <div className="flex flex-wrap gap-2" role="group" aria-label={t('counterGiftCards.presets')}>
          {presets.map((cents) => (
            <button
              key={cents}
              type="button"
              className="btn-secondary px-3 py-1 text-sm"
              onClick={() => setAmount(minorToText(cents, currency))}
            >
              {formatMoney(cents)}
            </button>
          ))}
        </div>
        <label className="field">
          <span className="field-label">
            {t('counterGiftCards.amount', { min: formatMoney(minCents), max: formatMoney(maxCents) })}
          </span>
          <input
            className="input"
            name="giftCardAmount"
            inputMode="decimal"
            autoComplete="off"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
          />
        </label>
        <label className="field">
          <span className="field-label">{t('counterGiftCards.recipient')}</span>
          <input
            className="input"
            type="email"
            name="giftCardRecipient"
            autoComplete="off"
            maxLength={254}
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </label>
        <FormMessages error={error} />
        <button type="submit" className="btn-secondary" disabled={amount.trim() === ''}>
          {t('counterGiftCards.add')}
        </button>
      </form>
      {cards.length > 0 && (
        <ul aria-label={t('counterGiftCards.toSell')} className="space-y-1 text-sm">
          {cards.map((c, i) => (
            <li key={i} className="flex flex-wrap items-center justify-between gap-2">
              <span>
                <span className="font-semibold text-gold">{t('counterGiftCards.card')}</span>{' '}
                {c.recipientEmail && t('counterGiftCards.for', { email: c.recipientEmail })}
              </span>
              <span className="flex items-center gap-3">
                <span className="tabular-nums">{formatMoney(c.amountCents)}</span>
                <button
                  type="button"
                  className="text-sm text-slate-300 underline hover:text-white"
                  onClick={() => onChange(cards.filter((_, j) => j !== i))}
                >
                  {t('counterGiftCards.remove', { amount: formatMoney(c.amountCents) })}
                </button>
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** A card the customer pays with, as its balance said when it was added. */
export interface CardToRedeem {
  code: string;
  balanceCents: number;
  expiresAt: string;
}

/**
 * Gift cards the customer pays with at the counter (`redeem`), each checked at once (the balance lookup): they pay
 * first, in the order added, and the rest goes to cash or the card terminal. Only with the network: the server holds
 * the balance.
 */
export function RedeemAtCounter({
  cards,
  onChange,
  totalCents,
}: {
  cards: CardToRedeem[];
  onChange: (cards: CardToRedeem[]) => void;
  totalCents: number;
}) {
  const { t } = useTranslation('admin');
  const formatMoney = useFormatMoney();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const id = useId();

  async function add(e: FormEvent) {
    e.preventDefault();
    const typed = normalizeGiftCardCode(code);
    if (!typed) {
      setError(t('counterGiftCards.badCode'));
      return;
    }
    if (cards.some((c) => normalizeGiftCardCode(c.code) === typed)) {
      setCode('');
      return;
    }
    setError(null);
    setChecking(true);
    try {
      const card = await api<GiftCardBalance>(`/gift-cards/${encodeURIComponent(typed)}`);
      if (card.status !== 'active' || card.balanceCents <= 0) {
        setError(
          card.status === 'active'
            ? t('counterGiftCards.empty', { code: card.code })
            : t(`counterGiftCards.${card.status}`, { code: card.code, date: formatDate(card.expiresAt) }),
        );
        return;
      }
      onChange([...cards, { code: card.code, balanceCents: card.balanceCents, expiresAt: card.expiresAt }]);
      setCode('');
    } catch (err) {
      setError(errorText(err, t('counterGiftCards.checkFailed')));
    } finally {
      setChecking(false);
    }
  }

  // What each card would take, in the order added (the server takes the same when the sale goes through).
  let left = totalCents;
  const uses = cards.map((c) => {
    const take = Math.min(c.balanceCents, left);
    left -= take;
    return { ...c, take };
  });

  return (
    <section aria-labelledby={`${id}-title`} className="space-y-2">
      <h3 id={`${id}-title`} className="font-semibold text-white">
        {t('counterGiftCards.redeemTitle')}
      </h3>
      <form onSubmit={(e) => void add(e)} className="flex flex-wrap items-end gap-2" noValidate>
        <label className="field min-w-40 flex-1">
          <span className="field-label">{t('counterGiftCards.code')}</span>
          <input
            className="input uppercase"
            name="redeemCode"
            autoComplete="off"
            spellCheck={false}
            maxLength={40}
            placeholder="XXXX-XXXX-XXXX-XXXX"
            value={code}
            onChange={(e) => setCode(e.target.value)}
          />
        </label>
        <button type="submit" className="btn-secondary" disabled={checking || code.trim() === ''}>
          {checking ? t('counterGiftCards.checking') : t('counterGiftCards.use')}
        </button>
      </form>
      <FormMessages error={error} />
      {uses.length > 0 && (
        <ul aria-label={t('counterGiftCards.paying')} className="space-y-1 text-sm">
          {uses.map((c) => (
            <li key={c.code} className="flex flex-wrap items-center justify-between gap-2">
              <span className="font-mono text-white">{c.code}</span>
              <span className="flex items-center gap-3">
                <span className="tabular-nums text-emerald-300">
                  −{formatMoney(c.take)}{' '}
                  <span className="text-muted">
                    ({t('counterGiftCards.holds', { amount: formatMoney(c.balanceCents) })})
                  </span>
                </span>
                <button
                  type="button"
                  className="text-sm text-slate-300 underline hover:text-white"
                  onClick={() => onChange(cards.filter((x) => x.code !== c.code))}
                >
                  {t('counterGiftCards.removeCard', { code: c.code })}
                </button>
              </span>
            </li>
          ))}
        </ul>
      )}
      <p className="text-xs text-slate-300">{t('counterGiftCards.onlineOnly')}</p>
    </section>
  );
}

/** What the rest comes to once the cards paid what they hold (never below zero). */
export const restAfterCards = (cards: CardToRedeem[], totalCents: number) =>
  Math.max(0, totalCents - cards.reduce((sum, c) => sum + c.balanceCents, 0));
