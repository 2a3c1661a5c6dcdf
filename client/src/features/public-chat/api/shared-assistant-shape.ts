/**
 * What a visitor holding a share link may see of an assistant (no sign-in). The visitor pages do not
 * load zod or the query cache, so the shape is checked by hand here.
 */
export interface SharedAssistant {
  id: number;
  name: string;
  description: string;
  avatar_url: string | null;
  /** The external id (asst_…) the visitor's runs are started with. */
  openai_assistant_id: string | null;
}

/** The fields the visitor pages use, read without zod (it stays out of their bundle); null for any other shape. */
export function readSharedAssistant(value: unknown): SharedAssistant | null {
  const v = (value ?? {}) as Record<string, unknown>;
  if (typeof v.id !== 'number' || typeof v.name !== 'string') return null;
  return {
    id: v.id,
    name: v.name,
    description: typeof v.description === 'string' ? v.description : '',
    avatar_url: typeof v.avatar_url === 'string' ? v.avatar_url : null,
    openai_assistant_id: typeof v.openai_assistant_id === 'string' ? v.openai_assistant_id : null,
  };
}
