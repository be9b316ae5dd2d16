import { useId, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { QueryStatus } from '../../../components/ui/query-status';
import { errorText } from '../../../lib/api-client';
import { useSettings } from '../../../lib/settings';
import { usePageHeading } from '../../../lib/use-page-heading';
import { useAudit } from '../api/get-audit';
import { auditChanges } from '../lib/audit-changes';

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
  const heading = usePageHeading('Audit log');
  const timeZone = useSettings()?.timeZone;
  const [params, setParams] = useSearchParams();
  const action = params.get('action') ?? '';
  const actor = params.get('actor') ?? '';
  const [actionText, setActionText] = useState(action);
  const [actorText, setActorText] = useState(actor);
  const audit = useAudit({ action: action || undefined, actor: actor || undefined });
  const entries = audit.data?.pages.flatMap((p) => p.entries) ?? [];
  const id = useId();

  function filter(e: FormEvent) {
    e.preventDefault();
    const next = new URLSearchParams();
    if (actionText.trim()) next.set('action', actionText.trim());
    if (actorText.trim()) next.set('actor', actorText.trim());
    setParams(next);
  }

  const when = (at: string) =>
    new Date(at).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium', timeZone });

  return (
    <section>
      <div className="mb-6 flex flex-wrap items-center justify-between gap-3">
        <h1 ref={heading} tabIndex={-1} className="page-title mb-0 outline-none">
          Audit log
        </h1>
        <Link to="/admin" className="text-sm">
          ← Admin
        </Link>
      </div>
      <form
        onSubmit={filter}
        className="card mb-6 flex flex-wrap items-end gap-3"
        aria-label="Filter the log"
      >
        <label className="field min-w-48 flex-1">
          <span className="field-label">Action</span>
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
          <span className="field-label">Staff email</span>
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
            Filter
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
              Show all
            </button>
          )}
        </div>
      </form>

      <QueryStatus query={audit} failure="Failed to load the audit log" />
      {audit.isSuccess && entries.length === 0 && (
        <p className="card">{action || actor ? 'No entries match.' : 'Nothing recorded yet.'}</p>
      )}
      {entries.length > 0 && (
        <ol className="space-y-3" aria-label="Entries, newest first">
          {entries.map((entry) => {
            const all = auditChanges(entry.before, entry.after, timeZone);
            const changes = all.filter((c) => !c.reference);
            const references = all.filter((c) => c.reference);
            return (
              <li key={entry.id} className="card p-4" data-audit-id={entry.id} data-action={entry.action}>
                <p className="flex flex-wrap items-baseline gap-x-3 gap-y-1 text-sm">
                  <code className="rounded bg-panel-2 px-1.5 py-0.5 font-semibold text-gold">
                    {entry.action}
                  </code>
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
                      <caption className="sr-only">{entry.action}: before and after</caption>
                      <thead className="text-xs text-muted">
                        <tr>
                          <th scope="col" className="py-1 pr-3 font-medium">
                            Field
                          </th>
                          <th scope="col" className="py-1 pr-3 font-medium">
                            Before
                          </th>
                          <th scope="col" className="py-1 font-medium">
                            After
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
                                <span className="sr-only"> (changed)</span>
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
                    <summary className="cursor-pointer">References</summary>
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
          })}
        </ol>
      )}
      {audit.isFetchNextPageError && (
        <p className="error mt-4" role="alert">
          {errorText(audit.error, 'Failed to load older entries')}
        </p>
      )}
      {audit.hasNextPage && (
        <button
          type="button"
          className="btn-secondary mt-4"
          disabled={audit.isFetchingNextPage}
          onClick={() => void audit.fetchNextPage()}
        >
          {audit.isFetchingNextPage ? 'Loading…' : 'Older entries'}
        </button>
      )}
    </section>
  );
}
