import { useState } from 'react';
import { downloadFile } from '../../lib/api-client';
import { useTranslation } from '../../lib/i18n';

/**
 * Downloads an order's tickets as a PDF (`GET /api/me/orders/{ref}/tickets.pdf`, one page per ticket), in the
 * viewer's language. A button, not a plain link: the request carries the session's bearer token.
 */
export function TicketsPdfButton({ orderRef, label }: { orderRef: string; label?: string }) {
  const { t } = useTranslation('common');
  const [state, setState] = useState<'idle' | 'loading' | 'failed'>('idle');

  const download = async () => {
    setState('loading');
    try {
      await downloadFile(`/me/orders/${encodeURIComponent(orderRef)}/tickets.pdf`, `tickets-${orderRef}.pdf`);
      setState('idle');
    } catch {
      setState('failed');
    }
  };

  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <button type="button" className="btn-secondary" onClick={download} disabled={state === 'loading'}>
        {state === 'loading' ? t('ui.pdf.preparing') : (label ?? t('ui.pdf.button', { ref: orderRef }))}
      </button>
      {state === 'failed' && (
        <span className="error text-sm" role="alert">
          {t('ui.pdf.failed')}
        </span>
      )}
    </span>
  );
}
