import { createHash, randomUUID } from 'node:crypto';
import type { AllPosition } from '@kesher/contracts';
import type { CommandHandler } from '../platform/commands/command-handler.js';
import { accountDecider } from '../domain/account/account.decider.js';
import type { AwaitReadModels } from '../platform/projections/read-model-progress.js';

/**
 * An account's stream is keyed by its e-mail address, so the event store's optimistic concurrency
 * makes the address unique: two registrations racing for one address cannot both append.
 */
export const accountStreamFor = (email: string) => `account-${createHash('sha256').update(email.toLowerCase()).digest('hex').slice(0, 40)}`;

export interface NewAccount {
  email: string;
  passwordHash: string | null;
  displayName: string | null;
  photoUrl: string | null;
  provider: 'password' | 'google' | 'demo';
}

export function createAccountRegistration(deps: { handle: CommandHandler; awaitReadModels: AwaitReadModels; clock: () => Date }) {
  return async function register(account: NewAccount, correlationId: string = randomUUID()): Promise<{ accountId: string }> {
    const accountId = randomUUID();
    const result = await deps.handle(
      accountDecider,
      accountStreamFor(account.email),
      { type: 'RegisterAccount', data: { accountId, ...account } },
      { actor: { kind: 'account', id: accountId }, correlationId, now: deps.clock() },
    );
    // Sign-in reads the accounts read model: answer only once it knows the new account.
    if (result.appended) await deps.awaitReadModels(result.appended.position, result.events.map((event) => event.type));
    return { accountId };
  };
}
export type AccountRegistration = ReturnType<typeof createAccountRegistration>;
