import { z } from 'zod';
import { DisplayTextSchema } from './common.ts';
import { layoutProblems, MAX_LAYOUT_COLS, MAX_LAYOUT_ROWS, SEAT_TYPES } from './constants.ts';
import { ErrorSchema } from './errors.ts';

export const SeatTypeSchema = z.enum(SEAT_TYPES);

export const LayoutCellSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('GAP') }),
  z.object({
    kind: z.literal('SEAT'),
    type: SeatTypeSchema.default('STANDARD'),
    blocked: z.boolean().optional(),
    pairId: z.string().trim().min(1).max(20).optional(),
    /** In answers only: the seat's id and its number in the row. */
    id: z.string().optional(),
    number: z.number().int().optional(),
  }),
]);

export const LayoutRowSchema = z.object({
  label: DisplayTextSchema('Row label', 4),
  cells: z.array(LayoutCellSchema).max(MAX_LAYOUT_COLS, `At most ${MAX_LAYOUT_COLS} cells in a row`),
});

/** A hall's layout (DESIGN §6.2): rows front to back, each a list of seats and gaps, left to right. */
export const HallLayoutSchema = z
  .object({
    rows: z
      .array(LayoutRowSchema)
      .min(1, 'A hall needs a row')
      .max(MAX_LAYOUT_ROWS, `At most ${MAX_LAYOUT_ROWS} rows`),
  })
  .superRefine((layout, ctx) => {
    for (const { path, message } of layoutProblems(layout.rows))
      ctx.addIssue({ code: 'custom', path, message });
  });
export type HallLayout = z.infer<typeof HallLayoutSchema>;

/** `POST /api/admin/halls`. */
export const CreateHallBodySchema = z.object({
  name: DisplayTextSchema('Name', 100),
  layout: HallLayoutSchema,
});
export type CreateHallBody = z.infer<typeof CreateHallBodySchema>;

/** `PUT /api/admin/halls/{id}/layout`: the new layout, and a new name if it changes. */
export const UpdateLayoutBodySchema = z
  .object({
    name: DisplayTextSchema('Name', 100).optional(),
    rows: HallLayoutSchema.shape.rows,
  })
  .superRefine((layout, ctx) => {
    for (const { path, message } of layoutProblems(layout.rows))
      ctx.addIssue({ code: 'custom', path, message });
  });
export type UpdateLayoutBody = z.infer<typeof UpdateLayoutBodySchema>;

/** A hall with its layout, as the editor reads and writes it. */
export const HallLayoutResponseSchema = z.object({
  id: z.string(),
  name: z.string(),
  cols: z.number().int(),
  seatCount: z.number().int(),
  rows: z.array(LayoutRowSchema),
});
export type HallLayoutResponse = z.infer<typeof HallLayoutResponseSchema>;

/** 409 `seats_at_stake`: the edit would remove, move or retype seats someone holds or bought for a coming show. */
export const SeatsAtStakeErrorSchema = ErrorSchema.extend({
  seats: z.array(z.object({ id: z.string(), rowLabel: z.string(), number: z.number().int() })),
});
