import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { formatGiftCardCode, normalizeGiftCardCode } from '@cinema/contract/constants';
import { useTranslation } from '../../../lib/i18n';
import { useSession } from '../../../lib/session';
import { formatDate, useFormatMoney } from '../../../lib/format';
import { usePageHeading } from '../../../lib/use-page-heading';
import { QueryStatus } from '../../../components/ui/query-status';
import { useGiftCardSearch } from '../api/gift-cards';
import { GiftCardDetails } from './gift-card-details';
import { GiftCardLiabilityPanel } from './gift-card-liability';

/**
 * /admin/gift-cards (DESIGN §7.3): find a card by its code or an email, read its balance, expiry and ledger; admins
 * void a card (audited) and read the outstanding balance on a date, as CSV too.
 */
export function GiftCardsAdminScreen() {
  const { t } = useTranslation('admin');
  const { user } = useSession();
  const formatMoney = useFormatMoney();
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  // A code typed whole opens that card at once; an email lists the cards sent to or bought by it.
  const typedCode = normalizeGiftCardCode(q);
  const chosen = params.get('card') ?? (typedCode ? formatGiftCardCode(typedCode) : '');
  const [text, setText] = useState(q);
  const search = useGiftCardSearch(typedCode ? '' : q);
  const heading = usePageHeading(t('giftCards.title'));
  const admin = user?.role === 'ADMIN';

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    setParams(text.trim() ? { q: text.trim() } : {});
  }

  return (
    <section className="mx-auto max-w-4xl space-y-4">
      <div>
        <h1 ref={heading} tabIndex={-1} className="page-title">
          {t('giftCards.title')}
        </h1>
        <nav aria-label={t('giftCards.elsewhere')} className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
          {admin && <Link to="/admin">{t('common.backToAdmin')}</Link>}
          <Link to="/admin/box-office">{t('boxOffice.title')}</Link>
        </nav>
      </div>
      <p className="muted text-sm">{t('giftCards.whereRedeemed')}</p>

      <form role="search" onSubmit={onSubmit} className="flex max-w-xl flex-wrap items-end gap-2">
        <label className="field min-w-56 grow">
          <span className="field-label">{t('giftCards.query')}</span>
          <input
            className="input"
            type="search"
            name="q"
            autoComplete="off"
            spellCheck={false}
            maxLength={254}
            value={text}
            onChange={(e) => setText(e.target.value)}
            placeholder="XXXX-XXXX-XXXX-XXXX"
          />
        </label>
        <button type="submit" className="btn-secondary" disabled={text.trim() === ''}>
          {t('giftCards.find')}
        </button>
      </form>

      {q !== '' && !typedCode && (
        <>
          <QueryStatus query={search} failure={t('giftCards.findFailed')} />
          {search.data?.cards.length === 0 && (
            <p className="card" role="status">
              {t('giftCards.noMatch', { q })}
            </p>
          )}
          {search.data && search.data.cards.length > 0 && (
            <ul className="space-y-2" aria-label={t('giftCards.matching', { q })}>
              {search.data.cards.map((c) => (
                <li key={c.code} className="card flex flex-wrap items-center gap-x-4 gap-y-1 p-4">
                  <Link
                    to={`?${new URLSearchParams({ q, card: c.code })}`}
                    className="font-mono text-lg font-semibold tracking-wider"
                    aria-current={c.code === chosen ? 'true' : undefined}
                  >
                    {c.code}
                  </Link>
                  <span>{c.recipientEmail ?? t('giftCards.noRecipient')}</span>
                  <span className="text-muted">
                    {t('giftCards.soldOn', { date: formatDate(c.createdAt) })}
                  </span>
                  <span className="ml-auto font-semibold">
                    {t('giftCards.balanceOf', {
                      balance: formatMoney(c.balanceCents, c.currency),
                      initial: formatMoney(c.initialCents, c.currency),
                    })}
                  </span>
                  <span className={c.status === 'active' ? 'text-emerald-300' : 'text-amber-200'}>
                    {t(`giftCards.status.${c.status}`)}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </>
      )}

      {chosen && <GiftCardDetails code={chosen} canVoid={admin} />}
      {admin && <GiftCardLiabilityPanel />}
    </section>
  );
}
