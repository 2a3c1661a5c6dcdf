import { createHash, randomUUID } from 'node:crypto';
import type { CommandHandler } from '../platform/commands/command-handler.js';
import { accountDecider, type AccountCommand, type AccountState } from '../domain/account/account.decider.js';
import type { AwaitReadModels } from '../platform/projections/read-model-progress.js';
import type { SignedInAccount } from './session.store.js';

/**
 * An account's stream is keyed by its e-mail address, so the event store's optimistic concurrency
 * makes the address unique: two registrations racing for one address cannot both append.
 */
export const accountStreamFor = (email: string) =>
  `account-${createHash('sha256').update(email.toLowerCase()).digest('hex').slice(0, 40)}`;

export interface NewAccount {
  email: string;
  passwordHash: string | null;
  displayName: string | null;
  photoUrl: string | null;
  provider: 'password' | 'google' | 'demo';
}

/**
 * The account as its stream decided it: what a registration or a Google sign-in answers with, so that the
 * answer never depends on the accounts read model having caught up (it answered 500 "account missing
 * after registration" when the projector lagged). Undefined when the stream holds no account.
 */
export function accountOfState(state: AccountState): SignedInAccount | undefined {
  if (state.status !== 'registered') return undefined;
  return {
    id: state.accountId,
    email: state.email,
    displayName: state.displayName,
    photoUrl: state.photoUrl,
    provider: state.provider,
    emailVerified: state.emailVerified,
    sessionGeneration: state.sessionGeneration,
  };
}

/**
 * Runs one command on the account stream of `email`, then waits (bounded) for the accounts read model,
 * which sign-in, the authenticator and the next command read: by the next request it usually has the
 * change. A wait that runs out is not an error — callers answer from the command's own result.
 */
export function createAccountCommands(deps: {
  handle: CommandHandler;
  awaitReadModels: AwaitReadModels;
  clock: () => Date;
}) {
  return async function runAccountCommand(
    email: string,
    command: AccountCommand,
    actorId: string,
    correlationId: string = randomUUID(),
  ) {
    const result = await deps.handle(accountDecider, accountStreamFor(email), command, {
      actor: { kind: 'account', id: actorId },
      correlationId,
      now: deps.clock(),
    });
    if (result.appended)
      await deps.awaitReadModels(
        result.appended.position,
        result.events.map((event) => event.type),
      );
    return result;
  };
}
export type RunAccountCommand = ReturnType<typeof createAccountCommands>;

export function createAccountRegistration(deps: {
  handle: CommandHandler;
  awaitReadModels: AwaitReadModels;
  clock: () => Date;
}) {
  const run = createAccountCommands(deps);
  /** Registers the account; answers with what the registration decided, whether or not the read model has it yet. */
  return async function register(
    account: NewAccount,
    correlationId: string = randomUUID(),
  ): Promise<{ accountId: string; account: SignedInAccount }> {
    const accountId = randomUUID();
    const result = await run(
      account.email,
      { type: 'RegisterAccount', data: { accountId, ...account } },
      accountId,
      correlationId,
    );
    const registered = accountOfState(result.state);
    if (!registered) throw new Error('a registration decided no account');
    return { accountId, account: registered };
  };
}
export type AccountRegistration = ReturnType<typeof createAccountRegistration>;
