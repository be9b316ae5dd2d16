import type { TFunction } from '../../../lib/i18n';
import { useId, useMemo, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { useNavigate } from 'react-router';
import type { HallLayoutResponse } from '@cinema/contract';
import { MAX_LAYOUT_COLS, MAX_LAYOUT_ROWS } from '@cinema/contract/constants';
import { ApiError, errorText } from '../../../lib/api-client';
import { seatsInWords } from '../../../lib/seat-text';
import { useSaveHall } from '../api/save-hall';
import {
  blankDraft,
  draftOf,
  draftProblems,
  layoutRows,
  paint,
  placesOf,
  relabel,
  resize,
  seatSummary,
  type Draft,
  type Tool,
} from '../lib/layout-draft';
import { LayoutGrid } from './layout-grid';
import { LayoutPreview } from './layout-preview';
import { ToolPicker } from './tool-picker';
import { FormMessages } from '../../../components/ui/form-messages';
import { TextField } from '../../../components/ui/text-field';

interface AtStake {
  seats: { id: string; rowLabel: string; number: number }[];
}

/** "180 seats: 12 premium seats, 14 sofa seats, 2 wheelchair spaces, 2 companion seats; 4 blocked". */
function summaryText(draft: Draft, t: TFunction<'admin'>): string {
  const { seats, blocked, byType } = seatSummary(draft);
  const kinds = [...byType]
    .filter(([type]) => type !== 'STANDARD')
    .map(([type, n]) => t(`seatTypeCount.${type}`, { count: n }));
  const total = t('hallEditor.seats', { count: seats });
  const summary = kinds.length ? t('hallEditor.seatsOfKinds', { total, kinds: kinds.join(', ') }) : total;
  return blocked ? t('hallEditor.withBlocked', { summary, count: blocked }) : summary;
}

/**
 * The layout editor: the hall's name and size, a grid painted with seat types, gaps and blocking, row labels, the
 * problems that stop a save, and a preview that is the customer's seat map. Saving a hall with sales is refused for
 * the seats it would move (409 seats_at_stake): they are named and outlined in the grid.
 */
export function HallEditor({
  hall,
  initialNotice = null,
}: {
  hall?: HallLayoutResponse;
  initialNotice?: string | null;
}) {
  const { t } = useTranslation('admin');
  const saved = useMemo(() => (hall ? draftOf(hall) : blankDraft()), [hall]);
  const [draft, setDraft] = useState<Draft>(saved);
  const [tool, setTool] = useState<Tool>('STANDARD');
  const [size, setSize] = useState({ rows: String(saved.rows.length), cols: String(saved.cols) });
  const [atStake, setAtStake] = useState<AtStake | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(initialNotice);
  const [showProblems, setShowProblems] = useState(false);
  const problemsRef = useRef<HTMLDivElement>(null);
  const save = useSaveHall(hall?.id);
  const navigate = useNavigate();
  const id = useId();

  const problems = useMemo(() => draftProblems(draft), [draft]);
  const changed = useMemo(() => JSON.stringify(draft) !== JSON.stringify(saved), [draft, saved]);
  const unnamed = !draft.name.trim();
  const problemPlaces = useMemo(
    () => new Set(problems.flatMap((p) => (p.place ? [p.place] : []))),
    [problems],
  );
  const stakePlaces = useMemo(
    () =>
      hall && atStake
        ? placesOf(
            hall,
            atStake.seats.map((s) => s.id),
          )
        : new Set<string>(),
    [hall, atStake],
  );

  const edit = (next: Draft) => {
    setDraft(next);
    setNotice(null);
  };
  const applySize = () => {
    const next = resize(draft, Number(size.rows), Number(size.cols));
    setSize({ rows: String(next.rows.length), cols: String(next.cols) });
    if (next.rows.length !== draft.rows.length || next.cols !== draft.cols) edit(next);
  };
  // Enter in a size field sets the size; it does not save the hall.
  const sizeKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key !== 'Enter') return;
    e.preventDefault();
    applySize();
  };
  const undo = () => {
    setDraft(saved);
    setSize({ rows: String(saved.rows.length), cols: String(saved.cols) });
    setAtStake(null);
    setError(null);
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    setNotice(null);
    if (problems.length > 0) {
      setShowProblems(true);
      problemsRef.current?.focus();
      return;
    }
    save.mutate(
      { name: draft.name.trim(), layout: { rows: layoutRows(draft) } },
      {
        onSuccess: (result) => {
          setAtStake(null);
          if (!hall)
            navigate(`/admin/halls/${result.id}`, {
              replace: true,
              state: { notice: t('hallEditor.created') },
            });
          else {
            setDraft(draftOf(result));
            setNotice(t('hallEditor.saved'));
          }
        },
        onError: (err) => {
          const named =
            err instanceof ApiError && err.code === 'seats_at_stake' ? (err.body as AtStake).seats : [];
          // Front to back, left to right.
          const rowOf = (label: string) =>
            (hall ?? draft).rows.findIndex((row) => row.label.trim() === label);
          const seats = [...(named ?? [])].sort(
            (a, b) => rowOf(a.rowLabel) - rowOf(b.rowLabel) || a.number - b.number,
          );
          if (seats.length) {
            setAtStake({ seats });
            setError(t('hallEditor.atStake', { seats: seatsInWords(seats), count: seats.length }));
          } else {
            setError(errorText(err, t('hallEditor.saveFailed')));
          }
        },
      },
    );
  };

  return (
    <div className="flex flex-col gap-6">
      <form
        onSubmit={submit}
        noValidate
        className="flex flex-col gap-6"
        aria-label={hall ? t('hallEditor.editNamed', { name: hall.name }) : t('halls.newHall')}
      >
        <div className="card grid grid-cols-2 items-end gap-4 sm:grid-cols-[2fr_1fr_1fr_auto]">
          <div className="col-span-2 sm:col-span-1">
            <TextField
              label={t('common.name')}
              name="name"
              value={draft.name}
              maxLength={100}
              required
              onValueChange={(name) => edit({ ...draft, name })}
            />
          </div>
          {(['rows', 'cols'] as const).map((name) => (
            <label key={name} className="field">
              <span className="field-label">
                {name === 'rows' ? t('hallEditor.rows') : t('hallEditor.columns')}
              </span>
              <input
                className="input"
                type="number"
                name={name}
                min={1}
                max={name === 'rows' ? MAX_LAYOUT_ROWS : MAX_LAYOUT_COLS}
                value={size[name]}
                onChange={(e) => setSize({ ...size, [name]: e.target.value })}
                onBlur={applySize}
                onKeyDown={sizeKey}
              />
            </label>
          ))}
          <button type="button" className="btn-secondary col-span-2 sm:col-span-1" onClick={applySize}>
            {t('hallEditor.setSize')}
          </button>
        </div>

        <div className="card flex min-w-0 flex-col gap-4">
          <ToolPicker tool={tool} onChange={setTool} />
          <p id={`${id}-help`} className="text-sm text-muted">
            {t('hallEditor.help')}
          </p>
          <LayoutGrid
            draft={draft}
            onPaint={(r, c, options) => edit(paint(draft, r, c, tool, options))}
            onRelabel={(r, label) => edit(relabel(draft, r, label))}
            atStake={stakePlaces}
            problems={problemPlaces}
            describedBy={`${id}-help`}
          />
          <p className="text-sm text-slate-200" data-testid="layout-summary">
            {summaryText(draft, t)}
          </p>
        </div>

        {problems.length > 0 && (
          <div
            ref={problemsRef}
            tabIndex={-1}
            role={showProblems ? 'alert' : undefined}
            className="rounded-lg border border-amber-300/50 bg-amber-950/60 px-4 py-3 text-sm text-amber-50 outline-none"
          >
            <p className="font-semibold">{t('hallEditor.toFix')}</p>
            <ul className="mt-1 list-disc pl-5">
              {problems.map((p, i) => (
                <li key={i}>{t(`hallEditor.problems.${p.rule}`, p.values)}</li>
              ))}
            </ul>
          </div>
        )}
        <FormMessages error={error} notice={notice} />
        <div className="flex flex-wrap gap-3">
          <div className="flex flex-col gap-1">
            <button
              type="submit"
              className="btn-primary"
              disabled={save.isPending || unnamed}
              aria-describedby={unnamed ? `${id}-name-hint` : undefined}
            >
              {save.isPending ? t('common.saving') : hall ? t('hallEditor.save') : t('hallEditor.create')}
            </button>
            {unnamed && (
              <span id={`${id}-name-hint`} className="text-xs text-muted">
                {t('hallEditor.nameFirst')}
              </span>
            )}
          </div>
          <button
            type="button"
            className="btn-secondary self-start"
            onClick={undo}
            disabled={save.isPending || !changed}
          >
            {t('hallEditor.undo')}
          </button>
        </div>
      </form>
      <LayoutPreview draft={draft} />
    </div>
  );
}
