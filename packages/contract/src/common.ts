import { z } from 'zod';

/** Every id in the API is a UUID; a malformed one is a 400, never a database error. */
export const IdSchema = z.uuid({ message: 'Invalid id' });
export type Id = z.infer<typeof IdSchema>;

export const IdParamsSchema = z.object({ id: IdSchema });
export type IdParams = z.infer<typeof IdParamsSchema>;

export const OkSchema = z.object({ ok: z.literal(true) });
export type Ok = z.infer<typeof OkSchema>;
