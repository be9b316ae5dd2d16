import { useMemo } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { SeatGrid } from '../../../components/seat-map/seat-grid';
import { SeatLegend } from '../../../components/seat-map/seat-legend';
import type { SeatCell } from '../../../components/seat-map/seat-view';
import type { Draft } from '../lib/layout-draft';

const nothing = () => undefined;

/** The draft as customers will see it: the very seat map they choose from, every seat available. */
export function LayoutPreview({ draft }: { draft: Draft }) {
  const { t } = useTranslation('admin');
  const seats = useMemo(
    () =>
      draft.rows.flatMap((row, r) => {
        let number = 0;
        return row.cells.flatMap((cell, col): SeatCell[] =>
          cell.kind === 'SEAT'
            ? [
                {
                  id: `preview-${r}-${col}`,
                  row: r + 1,
                  number: ++number,
                  col,
                  rowLabel: row.label.trim(),
                  type: cell.type,
                  pairId: cell.pairId,
                  view: cell.blocked ? 'BLOCKED' : 'AVAILABLE',
                },
              ]
            : [],
        );
      }),
    [draft],
  );
  const rows = useMemo(() => draft.rows.map((row) => ({ label: row.label.trim() })), [draft]);
  return (
    <section aria-labelledby="preview-title" className="card flex flex-col gap-5">
      <div>
        <h2 id="preview-title" className="text-lg font-semibold text-white">
          {t('hallEditor.preview')}
        </h2>
        <p className="text-sm text-muted">{t('hallEditor.previewHint')}</p>
      </div>
      <SeatGrid
        rows={rows}
        cols={draft.cols}
        seats={seats}
        onPress={nothing}
        label={t('hallEditor.previewLabel')}
      />
      <SeatLegend
        types={new Set(seats.map((s) => s.type))}
        blocked={seats.some((s) => s.view === 'BLOCKED')}
      />
    </section>
  );
}
