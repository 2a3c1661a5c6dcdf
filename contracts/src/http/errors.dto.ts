import { z } from 'zod';

/** The one error shape on the wire, as the spec's client reads it: a text, or a list of items with msg. */
export const ErrorBodySchema = z.object({
  detail: z.union([z.string(), z.array(z.object({ loc: z.array(z.union([z.string(), z.number()])), msg: z.string(), type: z.string() }))]),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;
