import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readModel, recorded, type ReadModelUnderTest } from '../testing/given-then.js';
import { accountsProjection } from './accounts.projection.js';

const registered = (accountId: string, email: string, provider: 'password' | 'google' = 'password') =>
  recorded('AccountRegistered', {
    accountId,
    email,
    displayName: 'Dana',
    passwordHash: provider === 'google' ? null : 'hash-1',
    provider,
    photoUrl: null,
  });

describe('accounts read model, given events then rows', () => {
  let model: ReadModelUnderTest;
  // Starting PGlite (WebAssembly) took over two minutes on the shared 2-core machine under load: a margin, not a wait.
  beforeAll(async () => void (model = await readModel(accountsProjection)), 600_000);
  beforeEach(async () => model.reset());
  afterAll(async () => model.close());

  const accounts = () =>
    model.rows(`SELECT id, email, email_verified, password_hash, session_generation FROM accounts ORDER BY id`);

  it('lists a registered account, verified at once only when it came from Google', async () => {
    await model.given(registered('acc-1', 'dana@example.com'), registered('acc-2', 'noa@example.com', 'google'));
    expect(await accounts()).toEqual([
      { id: 'acc-1', email: 'dana@example.com', email_verified: false, password_hash: 'hash-1', session_generation: 0 },
      { id: 'acc-2', email: 'noa@example.com', email_verified: true, password_hash: null, session_generation: 0 },
    ]);
  });

  it('keeps the first owner of an address when a second account claims it', async () => {
    await model.given(registered('acc-1', 'dana@example.com'), registered('acc-2', 'dana@example.com'));
    expect((await accounts()).map((a) => a.id)).toEqual(['acc-1']);
  });

  it('marks the address verified, and a password reset bumps the session generation', async () => {
    await model.given(registered('acc-1', 'dana@example.com'));
    await model.given(
      recorded('AccountEmailVerified', { accountId: 'acc-1', email: 'dana@example.com' }),
      recorded('AccountPasswordReset', { accountId: 'acc-1', passwordHash: 'hash-2' }),
      recorded('AccountPasswordReset', { accountId: 'acc-1', passwordHash: 'hash-3' }),
    );
    expect(await accounts()).toEqual([
      { id: 'acc-1', email: 'dana@example.com', email_verified: true, password_hash: 'hash-3', session_generation: 2 },
    ]);
  });

  it('drops an account whose address was released, deleted, or erased, and only that one', async () => {
    await model.given(
      registered('acc-1', 'a@example.com'),
      registered('acc-2', 'b@example.com'),
      registered('acc-3', 'c@example.com'),
      registered('acc-4', 'd@example.com'),
    );
    await model.given(
      recorded('AccountAddressReleased', {
        accountId: 'acc-1',
        email: 'a@example.com',
        reason: 'claimed-by-verified-google',
      }),
      recorded('AccountDeleted', { accountId: 'acc-2' }),
      recorded('SubjectErased', {
        erasureId: 'er-1',
        subject: 'account',
        keyId: 'key-acc-3',
        ownerId: 'acc-3',
        threadId: null,
        reason: 'account_deleted',
        actor: 'account:acc-3',
        dependentKeys: 0,
      }),
      // A thread's erasure names its owner but must not remove the owner's account.
      recorded('SubjectErased', {
        erasureId: 'er-2',
        subject: 'thread',
        keyId: 'key-thread',
        ownerId: 'acc-4',
        threadId: 'thread-1',
        reason: 'visitor_request',
        actor: 'visitor:abc',
        dependentKeys: 0,
      }),
    );
    expect((await accounts()).map((a) => a.id)).toEqual(['acc-4']);
  });
});
