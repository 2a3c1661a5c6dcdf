import type { SubjectErasure } from '../subject-erasure.port.js';

/**
 * What deleting an account does outside the privacy module, each through the module that owns it (the
 * composition root wires them: compose-account-deletion.ts). Every step is idempotent, so a deletion that
 * failed half-way is finished by asking again.
 */
export interface AccountDeletionSteps {
  /** Ends the subscription at once at the payments service (no further charge) and records it. */
  cancelSubscription(ownerId: string): Promise<void>;
  /** Disconnects every channel of every assistant: the webhooks are removed at Telegram and Meta. */
  disconnectChannels(ownerId: string): Promise<void>;
  /** Revokes the Google Drive grant at Google and forgets the refresh token. */
  revokeDrive(ownerId: string): Promise<void>;
  /** Deletes every assistant with its knowledge files (their blobs freed), crawled pages and conversations. */
  deleteAssistants(ownerId: string): Promise<void>;
  /** Records AccountDeleted on the account's stream: the address may start a new account. */
  releaseAddress(account: { id: string; email: string }): Promise<void>;
  /** Every session of the account ends now, on every API process. */
  endSessions(ownerId: string): Promise<void>;
}

export interface AccountDeletionDeps {
  steps: AccountDeletionSteps;
  erasure: SubjectErasure;
  /** A step at an outside service that failed: logged, and the deletion goes on (the data is ours to erase). */
  onStepError: (step: string, error: unknown) => void;
}

export type AccountDeletion = (account: { id: string; email: string }) => Promise<void>;

/**
 * "Delete my account" (DELETE /auth/me, docs/privacy.md): the outside world first — nothing is charged,
 * no channel keeps answering, Google forgets the grant — then the owner's things, the address, the
 * sessions, and last every personal field the account and its conversations ever had (crypto-shredding).
 * Cancelling the subscription is the one step that must succeed: an account we can no longer see must
 * not go on being charged. The payment records themselves are kept, as the law asks (7 years).
 */
export function createAccountDeletion(deps: AccountDeletionDeps): AccountDeletion {
  async function tolerant(step: string, work: () => Promise<void>) {
    try {
      await work();
    } catch (error) {
      deps.onStepError(step, error);
    }
  }

  return async (account) => {
    await deps.steps.cancelSubscription(account.id);
    await tolerant('disconnect channels', () => deps.steps.disconnectChannels(account.id));
    await tolerant('revoke Google Drive', () => deps.steps.revokeDrive(account.id));
    await deps.steps.deleteAssistants(account.id);
    await deps.steps.releaseAddress(account);
    await deps.steps.endSessions(account.id);
    await deps.erasure.erase(
      { kind: 'account', accountId: account.id },
      { reason: 'account_deleted', actor: `account:${account.id}` },
    );
  };
}
