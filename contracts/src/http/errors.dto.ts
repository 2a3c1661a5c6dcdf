import { z } from 'zod';

/**
 * The error handler's own texts (a request it cannot read, two writes at once) and the framework's: said
 * without a throw site of their own, so they live beside the error shape.
 */
export const requestMessages = {
  concurrentChange: 'This item was changed at the same moment by another request. Please try again.',
  invalidData: 'The request contains invalid data.',
  notJson: 'The request body is not valid JSON.',
  emptyBody: 'The request body is empty.',
  unsupportedContentType: 'Unsupported content type.',
  invalidAddress: 'The address of this request is not valid.',
} as const;

/**
 * A text's stable name beside its words: the catalogue key (`chat.threadNotFound`, see error-codes.ts), so
 * that the client translates by name and a reworded English sentence keeps its Hebrew. `args` are the values
 * of a parametrised text (`common.assistantLimitReached`: ["3"]), as the text shows them, in parameter order.
 */
const CodeFields = {
  code: z.string().optional(),
  args: z.array(z.string()).optional(),
};

/** The one error shape on the wire, as the spec's client reads it: a text, or a list of items with msg. */
export const ErrorBodySchema = z.object({
  detail: z.union([
    z.string(),
    z.array(
      z.object({ loc: z.array(z.union([z.string(), z.number()])), msg: z.string(), type: z.string(), ...CodeFields }),
    ),
  ]),
  ...CodeFields,
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;
