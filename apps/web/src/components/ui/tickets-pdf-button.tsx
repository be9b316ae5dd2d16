import { useState } from 'react';
import { downloadFile } from '../../lib/api-client';
import { useTranslation } from '../../lib/i18n';

/**
 * Downloads one of an order's PDFs in the viewer's language: its tickets (`GET /api/me/orders/{ref}/tickets.pdf`, one
 * page per ticket) or its receipt (`receipt.pdf`; staff read any order's at `/api/admin/orders/{ref}/receipt.pdf`). A
 * button, not a plain link: the request carries the session's bearer token.
 */
export function TicketsPdfButton({
  orderRef,
  label,
  document = 'tickets',
  staff = false,
}: {
  orderRef: string;
  label?: string;
  document?: 'tickets' | 'receipt';
  staff?: boolean;
}) {
  const { t } = useTranslation('common');
  const [state, setState] = useState<'idle' | 'loading' | 'failed'>('idle');

  const download = async () => {
    setState('loading');
    try {
      await downloadFile(
        `/${staff ? 'admin' : 'me'}/orders/${encodeURIComponent(orderRef)}/${document}.pdf`,
        `${document}-${orderRef}.pdf`,
      );
      setState('idle');
    } catch {
      setState('failed');
    }
  };

  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <button type="button" className="btn-secondary" onClick={download} disabled={state === 'loading'}>
        {state === 'loading'
          ? t('ui.pdf.preparing')
          : (label ?? t(document === 'receipt' ? 'ui.pdf.receipt' : 'ui.pdf.button', { ref: orderRef }))}
      </button>
      {state === 'failed' && (
        <span className="error text-sm" role="alert">
          {t('ui.pdf.failed')}
        </span>
      )}
    </span>
  );
}
