import type { SubjectRef } from '@kesher/contracts';

/**
 * The data subjects' keys, as the event-log codec sees them (services/src/privacy/keys implements it).
 * `peek` is synchronous and answers from the process's cache, so an append or a read whose keys are
 * cached costs no database round trip; `load` fetches (and for writing, creates) the missing ones in one.
 */
export interface SubjectKeys {
  /** The key's name: `account:<id>`, `thread:<id>`, `contact:<keyed hash>` (a contact's ids are personal). */
  keyIdOf(subject: SubjectRef): string;
  /** The cached key; null when the subject is erased; undefined when this process does not know yet. */
  peek(keyId: string): Buffer | null | undefined;
  /** Loads the named keys into the cache (missing ones count as erased). */
  load(keyIds: readonly string[]): Promise<void>;
  /** Makes the keys that do not exist yet (an erased subject's stays erased), then loads them. */
  ensure(keys: readonly { keyId: string; ownerId: string | null }[]): Promise<void>;
  /**
   * Tells `listener` of every key this process learns is erased (shredded here, announced by another
   * process, or found missing), `all` when it was told to forget every key. Returns its removal.
   */
  onErased?(listener: (keyIds: readonly string[] | 'all') => void): () => void;
}
