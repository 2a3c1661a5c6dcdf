import { createHash, randomBytes } from 'node:crypto';
import type { Actor } from '@kesher/contracts';
import type { AssistantRow } from '@kesher/projections/assistants/assistants.queries';
import type { ThreadReader } from '@kesher/projections/threads/threads.queries';
import type { Requester } from '../../domain/thread/thread.decider.js';

/** Who is chatting: a signed-in owner, or a visitor known only by the session token they hold. */
export type Chatter = { kind: 'owner'; ownerId: string } | { kind: 'visitor'; sessionHash: string };

/** The token itself is the visitor's secret; only its hash is stored and compared. */
export const hashSession = (token: string) => createHash('sha256').update(token).digest('hex');
export const newSessionToken = () => randomBytes(32).toString('hex');
export const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

export const readerOf = (chatter: Chatter): ThreadReader & Requester =>
  chatter.kind === 'owner' ? { ownerId: chatter.ownerId } : { visitorSessionHash: chatter.sessionHash };
/** The share link a visitor's thread is bound to (its token's sha-256); null when the assistant has none. */
export const shareTokenHashOf = (assistant: Pick<AssistantRow, 'share_token'>) =>
  assistant.share_token ? hashSession(assistant.share_token) : null;
/** Who writes: a visitor also carries the assistant's current link, which the decider compares with the thread's. */
export const writerOf = (chatter: Chatter, assistant: Pick<AssistantRow, 'share_token'>): Requester =>
  chatter.kind === 'owner'
    ? { ownerId: chatter.ownerId }
    : { visitorSessionHash: chatter.sessionHash, shareTokenHash: shareTokenHashOf(assistant) };
export const actorOf = (chatter: Chatter): Actor =>
  chatter.kind === 'owner' ? { kind: 'account', id: chatter.ownerId } : { kind: 'visitor', id: chatter.sessionHash };
export const authorKeyOf = (chatter: Chatter) =>
  chatter.kind === 'owner' ? `account:${chatter.ownerId}` : `visitor:${chatter.sessionHash}`;
