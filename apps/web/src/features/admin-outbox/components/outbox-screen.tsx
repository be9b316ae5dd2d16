import { Fragment, useState } from 'react';
import { Link } from 'react-router';
import type { OutboxMessage } from '@cinema/contract';
import { formatDateTime } from '../../../lib/format';
import { QueryStatus } from '../../../components/ui/query-status';
import { useOutbox } from '../api/get-outbox';

const KINDS: Record<string, string> = {
  order_confirmation: 'Order confirmation',
  refund_notice: 'Refund notice',
  password_reset: 'Password reset',
};

function Delivery({ message: m }: { message: OutboxMessage }) {
  switch (m.status) {
    case 'sent':
      return (
        <span className="text-emerald-300">
          Sent <time dateTime={m.sentAt ?? undefined}>{m.sentAt ? formatDateTime(m.sentAt) : ''}</time>
        </span>
      );
    case 'stored':
      return <span className="text-muted">Kept here (no SMTP_URL)</span>;
    case 'pending':
      return (
        <span className="text-gold">
          Waiting to be sent{m.attempts > 0 ? ` (tried ${m.attempts}×: ${m.lastError ?? 'failed'})` : ''}
        </span>
      );
    case 'failed':
      return (
        <span className="error">
          Not sent after {m.attempts} tries: {m.lastError}
        </span>
      );
  }
}

/** Web addresses in a plain-text email as links (the reset link, the tickets page). */
function Linked({ text }: { text: string }) {
  const parts = text.split(/(https?:\/\/[^\s<>"]+)/g);
  return (
    <>
      {parts.map((part, i) =>
        i % 2 === 1 ? (
          <a key={i} href={part} className="break-all underline">
            {part}
          </a>
        ) : (
          <Fragment key={i}>{part}</Fragment>
        ),
      )}
    </>
  );
}

/** /admin/outbox: every email the cinema wrote, newest first; without SMTP_URL this is where they are read. */
export function OutboxScreen() {
  const [page, setPage] = useState(1);
  const outbox = useOutbox(page);
  const messages = outbox.data?.messages;

  return (
    <section>
      <h1 className="page-title">Outbox</h1>
      <nav aria-label="Admin" className="mb-4 text-sm">
        <Link to="/admin">← Admin</Link>
      </nav>
      <QueryStatus query={outbox} failure="Failed to load the outbox" />
      {messages?.length === 0 && <p className="card">No emails yet.</p>}
      {messages && messages.length > 0 && (
        <ol className="space-y-3" aria-label="Emails, newest first">
          {messages.map((m) => (
            <li key={m.id} className="card">
              <h2 className="text-base font-semibold break-words">{m.subject}</h2>
              <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
                <dt className="text-muted">To</dt>
                <dd className="break-all">{m.to}</dd>
                <dt className="text-muted">Kind</dt>
                <dd>{KINDS[m.kind] ?? m.kind}</dd>
                <dt className="text-muted">Written</dt>
                <dd>
                  <time dateTime={m.createdAt}>{formatDateTime(m.createdAt)}</time>
                </dd>
                <dt className="text-muted">Delivery</dt>
                <dd>
                  <Delivery message={m} />
                </dd>
                {m.attachments.length > 0 && (
                  <>
                    <dt className="text-muted">Attached</dt>
                    <dd className="break-all">{m.attachments.map((a) => a.filename).join(', ')}</dd>
                  </>
                )}
              </dl>
              <details className="mt-2">
                <summary className="cursor-pointer text-sm">Show the message</summary>
                <pre className="mt-2 overflow-x-auto text-sm whitespace-pre-wrap">
                  <Linked text={m.text} />
                </pre>
              </details>
            </li>
          ))}
        </ol>
      )}
      {(page > 1 || outbox.data?.nextPage) && (
        <nav aria-label="Pages" className="mt-4 flex gap-3">
          <button
            type="button"
            className="btn-secondary"
            disabled={page === 1}
            onClick={() => setPage(page - 1)}
          >
            Newer
          </button>
          <button
            type="button"
            className="btn-secondary"
            disabled={!outbox.data?.nextPage}
            onClick={() => setPage(outbox.data?.nextPage ?? page)}
          >
            Older
          </button>
        </nav>
      )}
    </section>
  );
}
