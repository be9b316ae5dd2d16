import { useState } from 'react';
import { currentLanguage } from '../../lib/i18n';
import { getToken } from '../../lib/session';
import { useTranslation } from '../../lib/i18n';

/**
 * Downloads an order's tickets as a PDF (`GET /api/me/orders/{ref}/tickets.pdf`, one page per ticket). A button,
 * not a plain link: the request carries the session's bearer token, which a link cannot.
 */
export function TicketsPdfButton({ orderRef, label }: { orderRef: string; label?: string }) {
  const { t } = useTranslation('common');
  const [state, setState] = useState<'idle' | 'loading' | 'failed'>('idle');

  const download = async () => {
    setState('loading');
    try {
      const token = getToken();
      const res = await fetch(`/api/me/orders/${encodeURIComponent(orderRef)}/tickets.pdf`, {
        // The PDF speaks the viewer's language.
        headers: {
          'accept-language': currentLanguage(),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
      });
      if (!res.ok) throw new Error(String(res.status));
      const url = URL.createObjectURL(await res.blob());
      const a = document.createElement('a');
      a.href = url;
      a.download = `tickets-${orderRef}.pdf`;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
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
