import { Fragment, useState } from 'react';
import { Trans, useTranslation } from '../../../lib/i18n';
import { Link } from 'react-router';
import type { OutboxMessage } from '@cinema/contract';
import { formatDateTime } from '../../../lib/format';
import { QueryStatus } from '../../../components/ui/query-status';
import { useOutbox } from '../api/get-outbox';

/** The kinds of email the cinema writes, as their catalogue keys (an unknown kind is shown as it is). */
const KINDS: Record<string, string> = {
  order_confirmation: 'outbox.kinds.orderConfirmation',
  refund_notice: 'outbox.kinds.refundNotice',
  password_reset: 'outbox.kinds.passwordReset',
  email_verification: 'outbox.kinds.emailVerification',
};

function Delivery({ message: m }: { message: OutboxMessage }) {
  const { t } = useTranslation('admin');
  switch (m.status) {
    case 'sent':
      return (
        <span className="text-emerald-300">
          <Trans
            t={t}
            i18nKey="outbox.sent"
            values={{ at: m.sentAt ? formatDateTime(m.sentAt) : '' }}
            components={{ time: <time dateTime={m.sentAt ?? undefined} /> }}
          />
        </span>
      );
    case 'stored':
      return <span className="text-muted">{t('outbox.stored')}</span>;
    case 'pending':
      return (
        <span className="text-gold">
          {m.attempts > 0
            ? t('outbox.retrying', { attempts: m.attempts, error: m.lastError ?? t('outbox.failed') })
            : t('outbox.pending')}
        </span>
      );
    case 'failed':
      return (
        <span className="error">{t('outbox.notSent', { attempts: m.attempts, error: m.lastError })}</span>
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
  const { t } = useTranslation('admin');
  const [page, setPage] = useState(1);
  const outbox = useOutbox(page);
  const messages = outbox.data?.messages;

  return (
    <section>
      <h1 className="page-title">{t('outbox.title')}</h1>
      <nav aria-label={t('dashboard.title')} className="mb-4 text-sm">
        <Link to="/admin">{t('common.backToAdmin')}</Link>
      </nav>
      <QueryStatus query={outbox} failure={t('outbox.loadFailed')} />
      {messages?.length === 0 && <p className="card">{t('outbox.empty')}</p>}
      {messages && messages.length > 0 && (
        <ol className="space-y-3" aria-label={t('outbox.list')}>
          {messages.map((m) => (
            <li key={m.id} className="card">
              <h2 className="text-base font-semibold break-words">{m.subject}</h2>
              <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
                <dt className="text-muted">{t('outbox.to')}</dt>
                <dd className="break-all">{m.to}</dd>
                <dt className="text-muted">{t('outbox.kind')}</dt>
                <dd>{KINDS[m.kind] ? t(KINDS[m.kind]!) : m.kind}</dd>
                <dt className="text-muted">{t('outbox.written')}</dt>
                <dd>
                  <time dateTime={m.createdAt}>{formatDateTime(m.createdAt)}</time>
                </dd>
                <dt className="text-muted">{t('outbox.delivery')}</dt>
                <dd>
                  <Delivery message={m} />
                </dd>
                {m.attachments.length > 0 && (
                  <>
                    <dt className="text-muted">{t('outbox.attached')}</dt>
                    <dd className="break-all">{m.attachments.map((a) => a.filename).join(', ')}</dd>
                  </>
                )}
              </dl>
              <details className="mt-2">
                <summary className="cursor-pointer text-sm">{t('outbox.show')}</summary>
                <pre className="mt-2 overflow-x-auto text-sm whitespace-pre-wrap">
                  <Linked text={m.text} />
                </pre>
              </details>
            </li>
          ))}
        </ol>
      )}
      {(page > 1 || outbox.data?.nextPage) && (
        <nav aria-label={t('common.pages')} className="mt-4 flex gap-3">
          <button
            type="button"
            className="btn-secondary"
            disabled={page === 1}
            onClick={() => setPage(page - 1)}
          >
            {t('outbox.newer')}
          </button>
          <button
            type="button"
            className="btn-secondary"
            disabled={!outbox.data?.nextPage}
            onClick={() => setPage(outbox.data?.nextPage ?? page)}
          >
            {t('outbox.older')}
          </button>
        </nav>
      )}
    </section>
  );
}
