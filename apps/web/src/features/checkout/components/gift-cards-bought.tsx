import type { OrderLine } from '@cinema/contract';
import { formatDate, useFormatMoney } from '../../../lib/format';
import { useTranslation } from '../../../lib/i18n';

/** The gift cards an order bought (DESIGN §7.3): each one's value, where it was emailed, its code and expiry. */
export function GiftCardsBought({ lines, currency }: { lines: OrderLine[]; currency: string }) {
  const { t } = useTranslation('common');
  const formatMoney = useFormatMoney();
  return (
    <ul className="grid gap-3" aria-label={t('checkout.giftCards')}>
      {lines.map((line, i) => {
        const card = line.giftCard;
        const amount = formatMoney(line.priceCents, currency);
        return (
          <li key={card?.code ?? i} className="card space-y-1" data-testid="gift-card-bought">
            <p className="font-semibold text-white">
              {card?.recipientEmail
                ? t('checkout.giftCardSent', { amount, email: card.recipientEmail })
                : t('checkout.giftCardToYou', { amount })}
            </p>
            {card?.code ? (
              <p className="text-sm text-slate-200">
                {t('checkout.giftCardCode')}{' '}
                <span className="font-mono tracking-wider text-gold">{card.code}</span>
                {card.expiresAt && ` · ${t('checkout.giftCardValid', { date: formatDate(card.expiresAt) })}`}
              </p>
            ) : (
              <p className="text-sm text-slate-200">{t('checkout.giftCardPending')}</p>
            )}
          </li>
        );
      })}
    </ul>
  );
}
