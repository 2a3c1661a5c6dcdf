import { ActionCallResultSchema } from '@kesher/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export interface TestActionInput {
  id: string;
  test_inputs: Record<string, string | number | boolean>;
  /** Only for an action that calls a named endpoint: whose external API configuration to use. */
  assistant_id?: number;
}

/** POST /actions/{id}/test with the §7 sample inputs; the answer is the call's outcome, shown as JSON. */
export const testAction = ({ id, ...body }: TestActionInput) =>
  api.post(`/actions/${encodeURIComponent(id)}/test`, ActionCallResultSchema, { body });

export const useTestAction = () => useMutation({ mutationFn: testAction });
