import type { AssistantProfile } from '@kesher/contracts';
import { describe, expect, it } from 'vitest';
import { assistantDecider, type AssistantEvent } from '../../domain/assistant/assistant.decider.js';
import { chatAssistantOf } from './chat-assistant.js';

const profile: AssistantProfile = {
  name: 'Shop helper',
  description: 'Answers questions about the shop',
  instructions: 'Be brief',
  chat_limit: 30,
  website_url: null,
  avatar_url: null,
  web_crawler: { enabled: false, website_url: null, max_pages: 10, max_depth: 1, delete_orphaned_pages: false },
  payment_processing: { enabled: false, sales_prompt: '' },
};
const created: AssistantEvent = {
  type: 'AssistantCreated',
  data: { assistantId: 'a1', numericId: 7, externalId: 'asst_abcdefghijklmnopqrstuvwx', ownerId: 'owner-1', profile },
};
const fold = (events: AssistantEvent[]) =>
  chatAssistantOf(events.reduce(assistantDecider.evolve, assistantDecider.initialState()));

describe('the chat’s assistant, from its stream', () => {
  it('has its ids, owner, current share link and limits', () => {
    expect(fold([created])).toEqual({
      id: 'a1',
      numeric_id: 7,
      external_id: 'asst_abcdefghijklmnopqrstuvwx',
      owner_id: 'owner-1',
      share_token: null,
      chat_limit: 30,
      visitor_daily_limit: null,
    });
    const shared = fold([
      created,
      { type: 'ShareTokenGenerated', data: { assistantId: 'a1', token: 'tok_first_aaaaaaaaaa' } },
      { type: 'ShareTokenGenerated', data: { assistantId: 'a1', token: 'tok_rotated_aaaaaaaa' } },
      { type: 'AssistantUpdated', data: { assistantId: 'a1', changes: { chat_limit: 5, visitor_daily_limit: 3 } } },
    ]);
    expect(shared).toMatchObject({ share_token: 'tok_rotated_aaaaaaaa', chat_limit: 5, visitor_daily_limit: 3 });
    expect(
      fold([
        created,
        { type: 'ShareTokenGenerated', data: { assistantId: 'a1', token: 'tok_first_aaaaaaaaaa' } },
        { type: 'ShareTokenRevoked', data: { assistantId: 'a1' } },
      ])?.share_token,
    ).toBeNull();
  });

  it('is missing when never created or deleted', () => {
    expect(fold([])).toBeUndefined();
    expect(fold([created, { type: 'AssistantDeleted', data: { assistantId: 'a1' } }])).toBeUndefined();
  });
});
