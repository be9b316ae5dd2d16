/** A place in a grid: its row (from 0 at the front) and its column (gaps counted). */
export interface GridPlace {
  col: number;
}

/**
 * Where an arrow key (or Home, End) goes from `rows[r][i]`, gaps skipped: left and right to the next seat in the row
 * across any aisle, up and down to the nearest row that has seats, at the column nearest this one (the left one of
 * two equally near). `rows` holds each row's seats ordered by column. Undefined: nowhere to go.
 */
export function placeToward<T extends GridPlace>(
  rows: readonly (readonly T[])[],
  r: number,
  i: number,
  key: string,
): T | undefined {
  const row = rows[r];
  const here = row?.[i];
  if (!row || !here) return undefined;
  const nearestIn = (step: 1 | -1) => {
    for (let other = r + step; other >= 0 && other < rows.length; other += step) {
      const candidates = rows[other]!;
      if (candidates.length === 0) continue;
      return candidates.reduce((best, s) =>
        Math.abs(s.col - here.col) < Math.abs(best.col - here.col) ? s : best,
      );
    }
    return undefined;
  };
  switch (key) {
    case 'ArrowLeft':
      return row[i - 1];
    case 'ArrowRight':
      return row[i + 1];
    case 'ArrowUp':
      return nearestIn(-1);
    case 'ArrowDown':
      return nearestIn(1);
    case 'Home':
      return row[0];
    case 'End':
      return row[row.length - 1];
    default:
      return undefined;
  }
}

/** Whether a key is one placeToward moves by. */
export const isMoveKey = (key: string) =>
  ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End'].includes(key);
