import { useId, useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import type { CheckoutResponse, GiftCardBalance } from '@cinema/contract';
import { giftCardAmounts, minorToText, toMinor } from '@cinema/contract/constants';
import { api, errorText } from '../../../lib/api-client';
import { formatDate, formatMoneyChange, useFormatMoney } from '../../../lib/format';
import { cinemaCurrency } from '../../../lib/settings';
import { useTranslation } from '../../../lib/i18n';

/**
 * Gift cards for customers (DESIGN §7.3): buy one (a preset amount or one's own within the limits, for oneself or
 * emailed to someone with a message), paid through the same checkout as tickets; and check what a card holds.
 */
export function GiftCardsScreen() {
  const { t } = useTranslation('common');
  const formatMoney = useFormatMoney();
  const currency = cinemaCurrency();
  const { presets, minCents, maxCents } = giftCardAmounts(currency);
  const id = useId();
  const [preset, setPreset] = useState<number | 'other'>(presets[1]!);
  const [other, setOther] = useState('');
  const [recipientEmail, setRecipientEmail] = useState('');
  const [message, setMessage] = useState('');
  const [buyError, setBuyError] = useState<string | null>(null);
  const [code, setCode] = useState('');

  const buy = useMutation({
    mutationFn: async (amountCents: number) => {
      const { url } = await api<CheckoutResponse>('/pay/checkout', {
        method: 'POST',
        body: {
          bookingIds: [],
          giftCards: [
            {
              amountCents,
              ...(recipientEmail.trim() && { recipientEmail: recipientEmail.trim() }),
              ...(message.trim() && { message: message.trim() }),
            },
          ],
        },
      });
      window.location.assign(url);
    },
    onError: (err) => setBuyError(errorText(err, t('giftCards.buyFailed'))),
  });
  const balance = useMutation({
    mutationFn: (typed: string) => api<GiftCardBalance>(`/gift-cards/${encodeURIComponent(typed.trim())}`),
  });

  const submitBuy = (e: FormEvent) => {
    e.preventDefault();
    setBuyError(null);
    const amountCents = preset === 'other' ? toMinor(other.trim(), currency) : preset;
    if (amountCents === null || amountCents < minCents || amountCents > maxCents) {
      setBuyError(t('giftCards.amountRange', { min: formatMoney(minCents), max: formatMoney(maxCents) }));
      return;
    }
    buy.mutate(amountCents);
  };

  return (
    <div className="mx-auto flex max-w-2xl flex-col gap-8">
      <h1 className="text-2xl font-bold text-white">{t('giftCards.title')}</h1>

      <section aria-labelledby={`${id}-buy`} className="card flex flex-col gap-4">
        <h2 id={`${id}-buy`} className="text-lg font-semibold text-white">
          {t('giftCards.buyTitle')}
        </h2>
        <form className="flex flex-col gap-4" onSubmit={submitBuy} noValidate>
          <fieldset className="flex flex-col gap-2">
            <legend className="field-label mb-1">{t('giftCards.amount')}</legend>
            <div className="flex flex-wrap gap-2">
              {presets.map((cents) => (
                <label key={cents} className="flex items-center gap-2 rounded border border-line px-3 py-2">
                  <input
                    type="radio"
                    name="amount"
                    value={cents}
                    checked={preset === cents}
                    onChange={() => setPreset(cents)}
                  />
                  {formatMoney(cents)}
                </label>
              ))}
              <label className="flex items-center gap-2 rounded border border-line px-3 py-2">
                <input
                  type="radio"
                  name="amount"
                  value="other"
                  checked={preset === 'other'}
                  onChange={() => setPreset('other')}
                />
                {t('giftCards.otherAmount')}
              </label>
            </div>
            {preset === 'other' && (
              <label className="field max-w-48">
                <span className="field-label">
                  {t('giftCards.ownAmount', {
                    currency,
                    min: minorToText(minCents, currency),
                    max: minorToText(maxCents, currency),
                  })}
                </span>
                <input
                  className="input"
                  name="otherAmount"
                  inputMode="decimal"
                  value={other}
                  onChange={(e) => setOther(e.target.value)}
                />
              </label>
            )}
          </fieldset>
          <label className="field">
            <span className="field-label">{t('giftCards.recipient')}</span>
            <input
              className="input"
              type="email"
              name="recipientEmail"
              autoComplete="off"
              maxLength={254}
              value={recipientEmail}
              aria-describedby={`${id}-recipient-hint`}
              onChange={(e) => setRecipientEmail(e.target.value)}
            />
            <span id={`${id}-recipient-hint`} className="text-xs text-muted">
              {t('giftCards.recipientHint')}
            </span>
          </label>
          <label className="field">
            <span className="field-label">{t('giftCards.message')}</span>
            <input
              className="input"
              name="message"
              maxLength={300}
              value={message}
              onChange={(e) => setMessage(e.target.value)}
            />
          </label>
          {buyError && (
            <p className="error" role="alert">
              {buyError}
            </p>
          )}
          <button type="submit" className="btn-primary self-start" disabled={buy.isPending}>
            {buy.isPending ? t('giftCards.buying') : t('giftCards.buy')}
          </button>
        </form>
      </section>

      <section aria-labelledby={`${id}-balance`} className="card flex flex-col gap-4">
        <h2 id={`${id}-balance`} className="text-lg font-semibold text-white">
          {t('giftCards.balanceTitle')}
        </h2>
        <form
          className="flex flex-wrap items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            if (code.trim()) balance.mutate(code);
          }}
        >
          <label className="field min-w-48 flex-1">
            <span className="field-label">{t('giftCards.code')}</span>
            <input
              className="input uppercase"
              name="code"
              autoComplete="off"
              maxLength={40}
              placeholder="XXXX-XXXX-XXXX-XXXX"
              value={code}
              onChange={(e) => setCode(e.target.value)}
            />
          </label>
          <button type="submit" className="btn-secondary" disabled={code.trim() === '' || balance.isPending}>
            {t('giftCards.check')}
          </button>
        </form>
        <div aria-live="polite">
          {balance.isError && (
            <p className="error" role="alert">
              {errorText(balance.error, t('giftCards.checkFailed'))}
            </p>
          )}
          {balance.data && (
            <p data-testid="gift-card-balance">
              {t(`giftCards.balance.${balance.data.status}`, {
                code: balance.data.code,
                amount: formatMoney(balance.data.balanceCents, balance.data.currency),
                date: formatDate(balance.data.expiresAt),
              })}
            </p>
          )}
          {balance.data && balance.data.history.length > 0 && <CardHistory card={balance.data} />}
        </div>
        <p className="text-sm text-muted">{t('giftCards.whereToUse')}</p>
      </section>
    </div>
  );
}

/** What a card was bought, spent and credited with, newest first: the card's ledger as its holder sees it. */
function CardHistory({ card }: { card: GiftCardBalance }) {
  const { t } = useTranslation('common');
  const formatMoney = useFormatMoney();
  const money = (cents: number) => formatMoney(cents, card.currency);
  return (
    <ol className="mt-3 space-y-1 text-sm" aria-label={t('giftCards.history', { code: card.code })}>
      {card.history.map((e, i) => (
        <li key={i} className="flex flex-wrap gap-x-3 border-b border-line/60 pb-1">
          <time dateTime={e.at} className="text-slate-300">
            {formatDate(e.at)}
          </time>
          <span className="text-white">{t(`giftCards.kind.${e.kind}`)}</span>
          <span className="tabular-nums">{formatMoneyChange(e.amountCents, card.currency)}</span>
          <span className="text-slate-300 tabular-nums">
            {t('giftCards.left', { amount: money(e.balanceAfterCents) })}
          </span>
        </li>
      ))}
    </ol>
  );
}
