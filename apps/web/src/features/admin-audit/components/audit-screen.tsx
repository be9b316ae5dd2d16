import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { Link, useSearchParams } from 'react-router';
import { QueryStatus } from '../../../components/ui/query-status';
import { useSettings } from '../../../lib/settings';
import { usePageHeading } from '../../../lib/use-page-heading';
import type { AuditEntry } from '@cinema/contract';
import { useAudit, type AuditFilter } from '../api/get-audit';
import { auditChanges, fieldName } from '../lib/audit-changes';
import { formatDateTime } from '../../../lib/format';

/** Actions the server records, offered as suggestions; a kind of thing ("showtime") matches all of its actions. */
const ACTIONS = [
  'showtime',
  'showtime.create',
  'showtime.batch',
  'showtime.delete',
  'hall',
  'hall.create',
  'hall.layout',
  'movie',
  'movie.create',
  'movie.delete',
  'price_card',
  'ticket_type',
  'promo',
  'order',
];

/**
 * /admin/audit: every staff action on money, seats and roles, newest first — who, when, what, and before → after
 * field by field — filtered by action or actor (?action=, ?actor=), 50 at a time with older ones on request.
 */
export function AuditScreen() {
  const { t } = useTranslation('admin');
  const heading = usePageHeading(t('audit.title'));
  const timeZone = useSettings()?.timeZone;
  const [params, setParams] = useSearchParams();
  const action = params.get('action') ?? '';
  const actor = params.get('actor') ?? '';
  const [actionText, setActionText] = useState(action);
  const [actorText, setActorText] = useState(actor);
  const id = useId();

  function filter(e: FormEvent) {
    e.preventDefault();
    const next = new URLSearchParams();
    if (actionText.trim()) next.set('action', actionText.trim());
    if (actorText.trim()) next.set('actor', actorText.trim());
    setParams(next);
  }

  return (
    <section>
      <div className="mb-6 flex flex-wrap items-center justify-between gap-3">
        <h1 ref={heading} tabIndex={-1} className="page-title mb-0 outline-none">
          {t('audit.title')}
        </h1>
        <Link to="/admin" className="text-sm">
          {t('common.backToAdmin')}
        </Link>
      </div>
      <form
        onSubmit={filter}
        className="card mb-6 flex flex-wrap items-end gap-3"
        aria-label={t('audit.filterLabel')}
      >
        <label className="field min-w-48 flex-1">
          <span className="field-label">{t('audit.action')}</span>
          <input
            className="input"
            list={`${id}-actions`}
            value={actionText}
            onChange={(e) => setActionText(e.target.value)}
            placeholder="showtime, hall.layout, …"
            maxLength={60}
          />
          <datalist id={`${id}-actions`}>
            {ACTIONS.map((a) => (
              <option key={a} value={a} />
            ))}
          </datalist>
        </label>
        <label className="field min-w-48 flex-1">
          <span className="field-label">{t('audit.staffEmail')}</span>
          <input
            className="input"
            type="email"
            value={actorText}
            onChange={(e) => setActorText(e.target.value)}
            maxLength={200}
          />
        </label>
        <div className="flex gap-2">
          <button type="submit" className="btn-primary">
            {t('audit.filter')}
          </button>
          {(action || actor) && (
            <button
              type="button"
              className="btn-secondary"
              onClick={() => {
                setActionText('');
                setActorText('');
                setParams(new URLSearchParams());
              }}
            >
              {t('audit.showAll')}
            </button>
          )}
        </div>
      </form>

      {/* A new filter starts again from the newest entries. */}
      <AuditPages
        key={`${action}|${actor}`}
        filter={{ action: action || undefined, actor: actor || undefined }}
        timeZone={timeZone}
      />
    </section>
  );
}

/** The pages shown so far: the newest, then each older one asked for by the last entry of the one before. */
function AuditPages({ filter, timeZone }: { filter: AuditFilter; timeZone?: string }) {
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  return (
    <>
      {cursors.map((before, i) => (
        <AuditPage
          key={before ?? 'newest'}
          filter={filter}
          before={before}
          page={i + 1}
          timeZone={timeZone}
          onOlder={i === cursors.length - 1 ? (next) => setCursors([...cursors, next]) : undefined}
        />
      ))}
    </>
  );
}

function AuditPage({
  filter,
  before,
  page,
  timeZone,
  onOlder,
}: {
  filter: AuditFilter;
  before?: string;
  page: number;
  timeZone?: string;
  /** Given to the last page shown: asks for the entries older than its last. */
  onOlder?: (next: string) => void;
}) {
  const { t } = useTranslation('admin');
  const audit = useAudit(filter, before);
  const entries = audit.data?.entries ?? [];
  const next = audit.data?.next;
  return (
    <>
      <QueryStatus query={audit} failure={page === 1 ? t('audit.failed') : t('audit.failedOlder')} />
      {page === 1 && audit.isSuccess && entries.length === 0 && (
        <p className="card">{filter.action || filter.actor ? t('audit.noMatch') : t('audit.empty')}</p>
      )}
      {entries.length > 0 && (
        <ol
          start={(page - 1) * 50 + 1}
          className={`space-y-3 ${page > 1 ? 'mt-3' : ''}`}
          aria-label={page === 1 ? t('audit.entries') : t('audit.olderPage', { page })}
        >
          {entries.map((entry) => (
            <AuditEntryItem key={entry.id} entry={entry} timeZone={timeZone} />
          ))}
        </ol>
      )}
      {onOlder && next && (
        <button type="button" className="btn-secondary mt-4" onClick={() => onOlder(next)}>
          {t('audit.older')}
        </button>
      )}
    </>
  );
}

function AuditEntryItem({ entry, timeZone }: { entry: AuditEntry; timeZone?: string }) {
  const { t } = useTranslation('admin');
  const when = (at: string) => formatDateTime(at, { timeStyle: 'medium', timeZone });
  const all = auditChanges(entry.before, entry.after, timeZone, {
    field: (key) => t(`audit.fields.${key}`, { defaultValue: fieldName(key) }),
    yes: t('audit.yes'),
    no: t('audit.no'),
    none: t('audit.none'),
  });
  const changes = all.filter((c) => !c.reference);
  const references = all.filter((c) => c.reference);
  return (
    <li key={entry.id} className="card p-4" data-audit-id={entry.id} data-action={entry.action}>
      <p className="flex flex-wrap items-baseline gap-x-3 gap-y-1 text-sm">
        <code className="rounded bg-panel-2 px-1.5 py-0.5 font-semibold text-gold">{entry.action}</code>
        <span className="text-white">{entry.actor}</span>
        <time dateTime={entry.at} className="text-muted">
          {when(entry.at)}
        </time>
        <span className="text-muted">
          {entry.subjectType}
          {entry.subjectId && (
            <>
              {' '}
              <span className="font-mono text-xs" title={entry.subjectId}>
                {entry.subjectId.slice(0, 8)}
              </span>
            </>
          )}
        </span>
      </p>
      {changes.length > 0 && (
        <div className="mt-3 overflow-x-auto">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">{t('audit.caption', { action: entry.action })}</caption>
            <thead className="text-xs text-muted">
              <tr>
                <th scope="col" className="py-1 pr-3 font-medium">
                  {t('audit.field')}
                </th>
                <th scope="col" className="py-1 pr-3 font-medium">
                  {t('audit.before')}
                </th>
                <th scope="col" className="py-1 font-medium">
                  {t('audit.after')}
                </th>
              </tr>
            </thead>
            <tbody>
              {changes.map((c) => (
                <tr key={c.field} className="border-t border-line/60 align-top">
                  <th scope="row" className="py-1 pr-3 font-medium text-slate-200">
                    {c.field}
                  </th>
                  <td className="py-1 pr-3 break-all text-slate-300">{c.before ?? '—'}</td>
                  <td
                    className={`py-1 break-all ${c.changed ? 'font-semibold text-white' : 'text-slate-300'}`}
                  >
                    {c.after ?? '—'}
                    {c.changed && c.before !== null && c.after !== null && (
                      <span className="sr-only">{t('audit.changed')}</span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {references.length > 0 && (
        <details className="mt-2 text-xs text-muted">
          <summary className="cursor-pointer">{t('audit.references')}</summary>
          <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5">
            {references.map((r) => (
              <div key={r.field} className="contents">
                <dt>{r.field}</dt>
                <dd className="font-mono break-all">
                  {r.before === r.after || r.before === null || r.after === null
                    ? (r.after ?? r.before)
                    : `${r.before} → ${r.after}`}
                </dd>
              </div>
            ))}
          </dl>
        </details>
      )}
    </li>
  );
}
