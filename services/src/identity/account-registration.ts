import { createHash, randomUUID } from 'node:crypto';
import type { CommandHandler } from '../platform/commands/command-handler.js';
import { accountDecider, type AccountCommand } from '../domain/account/account.decider.js';
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

/**
 * Runs one command on the account stream of `email` and answers once the accounts read model has it:
 * sign-in, the authenticator and the next command all read that read model.
 */
export function createAccountCommands(deps: { handle: CommandHandler; awaitReadModels: AwaitReadModels; clock: () => Date }) {
  return async function runAccountCommand(email: string, command: AccountCommand, actorId: string, correlationId: string = randomUUID()) {
    const result = await deps.handle(accountDecider, accountStreamFor(email), command, {
      actor: { kind: 'account', id: actorId },
      correlationId,
      now: deps.clock(),
    });
    if (result.appended) await deps.awaitReadModels(result.appended.position, result.events.map((event) => event.type));
    return result;
  };
}
export type RunAccountCommand = ReturnType<typeof createAccountCommands>;

export function createAccountRegistration(deps: { handle: CommandHandler; awaitReadModels: AwaitReadModels; clock: () => Date }) {
  const run = createAccountCommands(deps);
  return async function register(account: NewAccount, correlationId: string = randomUUID()): Promise<{ accountId: string }> {
    const accountId = randomUUID();
    await run(account.email, { type: 'RegisterAccount', data: { accountId, ...account } }, accountId, correlationId);
    return { accountId };
  };
}
export type AccountRegistration = ReturnType<typeof createAccountRegistration>;
