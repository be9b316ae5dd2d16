import { useState } from 'react';
import { getToken } from '../../lib/session';

/**
 * Downloads an order's tickets as a PDF (`GET /api/me/orders/{ref}/tickets.pdf`, one page per ticket). A button,
 * not a plain link: the request carries the session's bearer token, which a link cannot.
 */
export function TicketsPdfButton({ orderRef, label }: { orderRef: string; label?: string }) {
  const [state, setState] = useState<'idle' | 'loading' | 'failed'>('idle');

  const download = async () => {
    setState('loading');
    try {
      const token = getToken();
      const res = await fetch(`/api/me/orders/${encodeURIComponent(orderRef)}/tickets.pdf`, {
        headers: token ? { authorization: `Bearer ${token}` } : {},
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
        {state === 'loading' ? 'Preparing PDF…' : (label ?? `Tickets as PDF (order ${orderRef})`)}
      </button>
      {state === 'failed' && (
        <span className="error text-sm" role="alert">
          The PDF could not be made. Try again.
        </span>
      )}
    </span>
  );
}
