import type { Tx } from '../../db/database.ts';
import { distributors, filmHireTerms } from '../../db/schema/index.ts';

/**
 * The demo's distributors and the terms of each demo movie (by its place in DEMO_MOVIES), so the film-hire report
 * of a new cinema has rental to show: a sliding scale, a minimum guarantee (in minor units) and plain percentages.
 */
const DEMO_TERMS: { distributor: number; percentBp: number; guaranteeCents?: number; scale?: number[][] }[] =
  [
    {
      distributor: 0,
      percentBp: 5000,
      scale: [
        [2, 4500],
        [3, 4000],
      ],
    },
    { distributor: 1, percentBp: 3500, guaranteeCents: 25_000 },
    { distributor: 0, percentBp: 4750 },
    { distributor: 1, percentBp: 4000, scale: [[3, 3500]] },
    { distributor: 0, percentBp: 4500 },
    { distributor: 1, percentBp: 3500 },
  ];
const DEMO_DISTRIBUTORS = ['Lanternfish Pictures', 'Harbour Light Films'];

/** On a new catalogue: two distributors and the demo movies' film-hire terms. */
export async function seedDemoFilmHire(tx: Tx, movieIds: string[]): Promise<void> {
  const made = await tx
    .insert(distributors)
    .values(DEMO_DISTRIBUTORS.map((name) => ({ name })))
    .onConflictDoNothing()
    .returning({ id: distributors.id });
  if (made.length < DEMO_DISTRIBUTORS.length) return;
  const terms = movieIds.flatMap((movieId, i) => {
    const t = DEMO_TERMS[i];
    return t
      ? [
          {
            movieId,
            distributorId: made[t.distributor]!.id,
            percentBp: t.percentBp,
            guaranteeCents: t.guaranteeCents ?? null,
            scale: (t.scale ?? []).map(([fromWeek, percentBp]) => ({
              fromWeek: fromWeek!,
              percentBp: percentBp!,
            })),
          },
        ]
      : [];
  });
  if (terms.length > 0) await tx.insert(filmHireTerms).values(terms);
}
