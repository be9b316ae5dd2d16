// The `common` catalogue of each language is downloaded in parts, each a chunk of its own built from the same
// `common.json` (the file translators edit and the catalogue tests read stays whole): the sign-in screens and the
// shell need only theirs, a screen brings the parts it shows with its code (docs/decisions/052-texts-in-parts.md).
// Each top-level section of `common.json` belongs to one part; a section named in no part is in `rest`.

/** The parts of `common` named by their sections; `rest` holds every other section. */
export const COMMON_PARTS = {
  // The layout, the error screens and every sign-in, register and password screen: awaited before the first render.
  shell: ['layout', 'common', 'errors', 'ui', 'auth', 'verify'],
  // What the seat map shows before a seat is held (and the films' attributes, which the film screens show too).
  seatMap: ['seat', 'seatMap', 'findSeats', 'attributes'],
  // The films and the schedule.
  catalogue: ['movies', 'schedule', 'genres'],
} as const satisfies Record<string, readonly string[]>;

export type CommonPart = keyof typeof COMMON_PARTS | 'rest';

export const ALL_COMMON_PARTS: readonly CommonPart[] = [
  ...(Object.keys(COMMON_PARTS) as (keyof typeof COMMON_PARTS)[]),
  'rest',
];

/** The part of `common` that holds top-level `section`. */
export function partOf(section: string): CommonPart {
  for (const [part, sections] of Object.entries(COMMON_PARTS))
    if ((sections as readonly string[]).includes(section)) return part as CommonPart;
  return 'rest';
}

/** The sections of `catalogue` that belong to `part` (the catalogue is one `common.json`). */
export function pickPart<T>(catalogue: Record<string, T>, part: CommonPart): Record<string, T> {
  return Object.fromEntries(Object.entries(catalogue).filter(([section]) => partOf(section) === part));
}
