import { useId, useState, type FormEvent } from 'react';
import { Trans, useTranslation } from '../../../lib/i18n';
import type { TicketType } from '@cinema/contract';
import { RATING_SYSTEMS } from '@cinema/contract/constants';
import { useRatingSystem } from '../../../lib/settings';
import { FormMessages } from '../../../components/ui/form-messages';
import { QueryStatus } from '../../../components/ui/query-status';
import { errorText } from '../../../lib/api-client';
import { useSaveTicketType, useTicketTypes } from '../api/ticket-types';

/** One ticket type: its name (renamed in place), whether it is sold, and the certificates it is not sold for. */
function TicketTypeRow({ type, onSaved }: { type: TicketType; onSaved: (text: string) => void }) {
  const { t } = useTranslation('admin');
  const save = useSaveTicketType();
  const ratingSystem = useRatingSystem();
  // Shown at once; put back if the server refuses.
  const [excluded, setExcluded] = useState(type.excludedRatings ?? []);
  // The certificates are shown on demand: a row stays one line until staff open them.
  const [ratingsOpen, setRatingsOpen] = useState(false);
  const [name, setName] = useState(type.name);
  const [error, setError] = useState<string | null>(null);
  // Shown at once; put back if the server refuses.
  const [active, setActive] = useState(type.active);
  const renamed = name.trim() !== '' && name.trim() !== type.name;

  const send = (body: { name?: string; active?: boolean; excludedRatings?: string[] }, done: string) => {
    setError(null);
    save.mutate(
      { id: type.id, ...body },
      {
        onSuccess: () => onSaved(done),
        onError: (err) => {
          setActive(type.active);
          setExcluded(type.excludedRatings ?? []);
          setError(errorText(err, t('ticketTypes.saveFailed')));
        },
      },
    );
  };

  return (
    <li className="flex flex-col gap-2 border-b border-line/60 py-3 last:border-0">
      <form
        className="flex flex-wrap items-end gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          if (renamed) send({ name: name.trim() }, t('ticketTypes.renamed', { name: name.trim() }));
        }}
      >
        <label className="field min-w-40 flex-1">
          <span className="field-label">{t('common.name')}</span>
          <input
            className="input"
            value={name}
            maxLength={40}
            onChange={(e) => setName(e.target.value)}
            aria-label={t('ticketTypes.nameOf', { name: type.name })}
          />
        </label>
        <button type="submit" className="btn-secondary" disabled={!renamed || save.isPending}>
          <Trans
            t={t}
            i18nKey="ticketTypes.rename"
            values={{ name: type.name }}
            components={{ sr: <span className="sr-only" /> }}
          />
        </button>
        <label className="flex min-h-10 items-center gap-2 text-sm">
          <input
            type="checkbox"
            className="h-5 w-5"
            checked={active}
            disabled={save.isPending}
            onChange={(e) => {
              setActive(e.target.checked);
              send(
                { active: e.target.checked },
                e.target.checked
                  ? t('ticketTypes.soldAgain', { name: type.name })
                  : t('ticketTypes.notSold', { name: type.name }),
              );
            }}
          />
          <Trans
            t={t}
            i18nKey="ticketTypes.sold"
            values={{ name: type.name }}
            components={{ sr: <span className="sr-only" /> }}
          />
        </label>
      </form>
      <button
        type="button"
        className="self-start text-sm underline"
        aria-expanded={ratingsOpen}
        onClick={() => setRatingsOpen((open) => !open)}
      >
        {t('ticketTypes.notFor', { name: type.name, system: ratingSystem })}{' '}
        {excluded.length > 0 ? excluded.join(', ') : t('ticketTypes.noExclusions')}
      </button>
      {ratingsOpen && (
        <fieldset className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm">
          <legend className="sr-only">
            {t('ticketTypes.notFor', { name: type.name, system: ratingSystem })}
          </legend>
          {RATING_SYSTEMS[ratingSystem].map((c) => (
            <label key={c.code} className="flex min-h-10 items-center gap-2">
              <input
                type="checkbox"
                className="h-5 w-5"
                checked={excluded.includes(c.code)}
                disabled={save.isPending}
                onChange={(e) => {
                  const next = e.target.checked
                    ? [...excluded, c.code]
                    : excluded.filter((code) => code !== c.code);
                  setExcluded(next);
                  send(
                    { excludedRatings: next },
                    t('ticketTypes.exclusionsSaved', {
                      name: type.name,
                      ratings: next.join(', ') || t('ticketTypes.noExclusions'),
                    }),
                  );
                }}
              />
              {c.code}
            </label>
          ))}
        </fieldset>
      )}
      <FormMessages error={error} />
    </li>
  );
}

/** Ticket types (Adult, Child, …): add one, rename one, stop or start selling one. The first sold one is the default. */
export function TicketTypesPanel() {
  const { t } = useTranslation('admin');
  const types = useTicketTypes();
  const create = useSaveTicketType();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const id = useId();

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    setNotice(null);
    create.mutate(
      { name: name.trim() },
      {
        onSuccess: (created) => {
          setNotice(t('ticketTypes.added', { name: created.name }));
          setName('');
        },
        onError: (err) => setError(errorText(err, t('ticketTypes.addFailed'))),
      },
    );
  };

  return (
    <section className="card space-y-4" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="text-lg font-semibold text-white">
        {t('ticketTypes.title')}
      </h2>
      <p className="text-sm text-slate-300">{t('ticketTypes.intro')}</p>
      <QueryStatus query={types} failure={t('ticketTypes.loadFailed')} />
      {types.data && (
        <ul aria-label={t('ticketTypes.title')}>
          {types.data.map((t) => (
            <TicketTypeRow key={`${t.id}-${t.name}`} type={t} onSaved={setNotice} />
          ))}
        </ul>
      )}
      <form className="flex flex-wrap items-end gap-3" onSubmit={onSubmit}>
        <label className="field min-w-40 flex-1">
          <span className="field-label">{t('ticketTypes.new')}</span>
          <input
            className="input"
            name="ticketTypeName"
            value={name}
            maxLength={40}
            onChange={(e) => setName(e.target.value)}
          />
        </label>
        <button type="submit" className="btn-primary" disabled={!name.trim() || create.isPending}>
          {t('ticketTypes.add')}
        </button>
      </form>
      <FormMessages error={error} notice={notice} />
    </section>
  );
}
