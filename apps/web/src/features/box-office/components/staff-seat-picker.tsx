import { useTranslation } from '../../../lib/i18n';
import type { SeatMap } from '@cinema/contract';
import { SeatGrid } from '../../../components/seat-map/seat-grid';
import { SeatLegend } from '../../../components/seat-map/seat-legend';
import type { SeatCell, SeatView } from '../../../components/seat-map/seat-view';
import { QueryStatus } from '../../../components/ui/query-status';
import { useShowtimeSeats } from '../api/box-office';
import { hallGrid, seatCells } from '../../../components/seat-map/seat-cells';

/** At the counter a blocked (house) seat can be sold; held and sold seats cannot. */
const staffUnavailable = (view: SeatView) => view === 'HELD' || view === 'CONFIRMED' || view === 'MINE';

/** The seats of a showtime as the box office sees them: blocked seats can be chosen too. */
export function staffCells(map: SeatMap, selected: ReadonlySet<string>): SeatCell[] {
  return seatCells(map, selected, new Set()).map((cell) =>
    cell.view === 'BLOCKED' && selected.has(cell.id) ? { ...cell, view: 'SELECTED' } : cell,
  );
}

/** A showtime's seat grid for staff: pressing a free or blocked seat chooses it (or lets it go). */
export function StaffSeatPicker({
  showtimeId,
  selected,
  onToggle,
  label,
}: {
  showtimeId: string;
  selected: ReadonlySet<string>;
  onToggle: (seat: SeatCell) => void;
  label: string;
}) {
  const { t } = useTranslation('admin');
  const map = useShowtimeSeats(showtimeId);
  if (!map.data) return <QueryStatus query={map} failure={t('boxOffice.seatsFailed')} />;
  const grid = hallGrid(map.data);
  return (
    <div className="space-y-3">
      <SeatGrid
        rows={grid.rows}
        cols={grid.cols}
        seats={staffCells(map.data, selected)}
        label={label}
        unavailable={staffUnavailable}
        onPress={(seat) => {
          if (!staffUnavailable(seat.view)) onToggle(seat);
        }}
      />
      <SeatLegend
        types={new Set(map.data.seats.map((seat) => seat.type ?? 'STANDARD'))}
        blocked={map.data.seats.some((seat) => seat.status === 'BLOCKED')}
      />
    </div>
  );
}
