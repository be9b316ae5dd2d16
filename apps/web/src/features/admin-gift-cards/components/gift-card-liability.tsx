import { useId, useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { errorText } from '../../../lib/api-client';
import { formatDate, useFormatMoney } from '../../../lib/format';
import { QueryStatus } from '../../../components/ui/query-status';
import { downloadLiabilityCsv, useGiftCardLiability } from '../api/gift-cards';

/** Today in the viewer's calendar, as YYYY-MM-DD. */
function today(): string {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
}

/** The outstanding balance of every card on a date (the cinema's liability), and the same per card as CSV. */
export function GiftCardLiabilityPanel() {
  const { t } = useTranslation('admin');
  const formatMoney = useFormatMoney();
  const [date, setDate] = useState(today);
  const [csvError, setCsvError] = useState<string | null>(null);
  const [downloading, setDownloading] = useState(false);
  const liability = useGiftCardLiability(date);
  const id = useId();

  async function download() {
    setCsvError(null);
    setDownloading(true);
    try {
      await downloadLiabilityCsv(date);
    } catch (err) {
      setCsvError(errorText(err, t('giftCards.csvFailed')));
    } finally {
      setDownloading(false);
    }
  }

  return (
    <section aria-labelledby={`${id}-title`} className="card space-y-3">
      <h2 id={`${id}-title`} className="text-lg font-semibold text-white">
        {t('giftCards.liability')}
      </h2>
      <div className="flex flex-wrap items-end gap-2">
        <label className="field">
          <span className="field-label">{t('giftCards.onDate')}</span>
          <input
            className="input"
            type="date"
            name="date"
            required
            value={date}
            onChange={(e) => setDate(e.target.value)}
          />
        </label>
        <button
          type="button"
          className="btn-secondary"
          onClick={() => void download()}
          disabled={downloading || !liability.data}
        >
          {t('giftCards.downloadCsv')}
        </button>
      </div>
      {date && <QueryStatus query={liability} failure={t('giftCards.liabilityFailed')} />}
      {liability.data && (
        <p role="status" data-testid="gift-card-liability">
          {t('giftCards.outstanding', {
            count: liability.data.cards.length,
            date: formatDate(`${liability.data.date}T12:00:00`),
            amount: formatMoney(liability.data.outstandingCents, liability.data.currency),
          })}
        </p>
      )}
      {csvError && (
        <p className="error" role="alert">
          {csvError}
        </p>
      )}
      <p className="muted text-sm">{t('giftCards.liabilityHint')}</p>
    </section>
  );
}
