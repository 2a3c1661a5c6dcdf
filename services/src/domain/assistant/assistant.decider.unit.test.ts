import { curatedMessages, messages, type AssistantProfile } from '@kesher/contracts';
import { describe, it } from 'vitest';
import { DomainError } from '../../platform/commands/decider.js';
import { deciderSpec } from '../../testing/decider-spec.js';
import { assistantDecider, type AssistantEvent } from './assistant.decider.js';

const spec = deciderSpec(assistantDecider);
const profile: AssistantProfile = {
  name: 'Shop helper',
  description: 'Answers questions about the shop',
  instructions: 'Be brief and polite',
  chat_limit: 100,
  website_url: 'https://shop.example.com',
  avatar_url: null,
  web_crawler: {
    enabled: true,
    website_url: 'https://shop.example.com',
    max_pages: 2000,
    max_depth: 10,
    delete_orphaned_pages: false,
  },
  payment_processing: { enabled: false, sales_prompt: '' },
};
const ids = { assistantId: 'a1', numericId: 1, externalId: 'asst_abcdefghijklmnopqrstuvwx', ownerId: 'owner-1' };
const created: AssistantEvent = { type: 'AssistantCreated', data: { ...ids, profile } };
const salesOn: AssistantEvent = {
  type: 'AssistantUpdated',
  data: { assistantId: 'a1', changes: { payment_processing: { enabled: true, sales_prompt: 'Sell' } } },
};

describe("assistant decider: file slots (the plan's max_files)", () => {
  const take = (fileId: string, limit = 2) => ({
    type: 'TakeFileSlot' as const,
    data: { assistantId: 'a1', ownerId: 'owner-1', fileId, limit },
  });
  const taken = (fileId: string): AssistantEvent => ({
    type: 'KnowledgeFileSlotTaken',
    data: { assistantId: 'a1', fileId },
  });
  const freed = (fileId: string): AssistantEvent => ({
    type: 'KnowledgeFileSlotFreed',
    data: { assistantId: 'a1', fileId },
  });

  it('gives a slot while the assistant has fewer files than the plan allows, once per file', () => {
    spec
      .given([created])
      .when(take('f1'))
      .then([taken('f1')]);
    spec
      .given([created, taken('f1')])
      .when(take('f1'))
      .then([]);
    spec
      .given([created, taken('f1')])
      .when(take('f2'))
      .then([taken('f2')]);
  });

  it("refuses the next file at the limit with the plan's text, and gives room again when a file goes", () => {
    spec
      .given([created, taken('f1'), taken('f2')])
      .when(take('f3'))
      .thenThrows(DomainError, messages.fileLimitReached(2));
    spec
      .given([created, taken('f1'), taken('f2'), freed('f1')])
      .when(take('f3'))
      .then([taken('f3')]);
    spec
      .given([created, taken('f1')])
      .when({ type: 'FreeFileSlots', data: { assistantId: 'a1', fileIds: ['f1', 'f1', 'unknown'] } })
      .then([freed('f1')]);
  });

  it("lets a crawled page's new version take the slot of the file it replaces, at the limit too — and only that", () => {
    const crawlTake = (fileId: string, replacing?: string) => ({
      type: 'TakeFileSlot' as const,
      data: {
        assistantId: 'a1',
        ownerId: 'owner-1',
        fileId,
        limit: 2,
        pool: 'crawl' as const,
        ...(replacing ? { replacing } : {}),
      },
    });
    const crawlTaken = (fileId: string): AssistantEvent => ({
      type: 'KnowledgeFileSlotTaken',
      data: { assistantId: 'a1', fileId, pool: 'crawl' },
    });
    const full = [created, crawlTaken('p1'), crawlTaken('p2')];
    spec
      .given(full)
      .when(crawlTake('p1-v2', 'p1'))
      .then([crawlTaken('p1-v2')]);
    spec.given(full).when(crawlTake('p3')).thenThrows(DomainError, messages.crawlPageLimitReached(2));
    // Naming a file that holds no crawl slot (an upload, or nothing) frees nothing.
    spec
      .given([...full, taken('upload-1')])
      .when(crawlTake('p3', 'upload-1'))
      .thenThrows(DomainError, messages.crawlPageLimitReached(2));
    spec.given(full).when(crawlTake('p3', 'unknown')).thenThrows(DomainError, messages.crawlPageLimitReached(2));
  });

  it("given a deleted assistant, when its files' slots are freed, then nothing is recorded", () => {
    spec
      .given([created, taken('f1'), { type: 'AssistantDeleted', data: { assistantId: 'a1' } }])
      .when({ type: 'FreeFileSlots', data: { assistantId: 'a1', fileIds: ['f1'] } })
      .then([]);
  });

  it('takes no upload for a deleted or foreign assistant', () => {
    spec
      .given([created, { type: 'AssistantDeleted', data: { assistantId: 'a1' } }])
      .when(take('f1'))
      .thenThrows(DomainError, messages.assistantNotFound);
    spec
      .given([created])
      .when({ ...take('f1'), data: { ...take('f1').data, ownerId: 'owner-2' } })
      .thenThrows(DomainError, messages.assistantNotFound);
  });
});

describe('assistant decider', () => {
  it('caps the long text fields by characters too, before counting words', () => {
    // 1000 "words" of 880 characters: within the spec's word limit, 880 KB all the same.
    const huge = Array.from({ length: 1000 }, () => 'x'.repeat(880)).join(' ');
    spec
      .given([])
      .when({ type: 'CreateAssistant', data: { ...ids, profile: { ...profile, description: huge } } })
      .thenThrows(DomainError, messages.descriptionTooManyChars);
    spec
      .given([created])
      .when({
        type: 'UpdateAssistant',
        data: { assistantId: 'a1', ownerId: 'owner-1', changes: { instructions: huge } },
      })
      .thenThrows(DomainError, messages.instructionsTooManyChars);
    const salesHuge = { ...profile.payment_processing, sales_prompt: 'y'.repeat(20_001) };
    spec
      .given([created])
      .when({
        type: 'UpdateAssistant',
        data: { assistantId: 'a1', ownerId: 'owner-1', changes: { payment_processing: salesHuge } },
      })
      .thenThrows(DomainError, messages.salesPromptTooManyChars);
    spec
      .given([])
      .when({ type: 'CreateAssistant', data: { ...ids, profile: { ...profile, description: 'z'.repeat(20_000) } } })
      .then([{ type: 'AssistantCreated', data: { ...ids, profile: { ...profile, description: 'z'.repeat(20_000) } } }]);
  });

  it('creates an assistant', () => {
    spec
      .given([])
      .when({ type: 'CreateAssistant', data: { ...ids, profile } })
      .then([created]);
  });

  it('refuses to create the same assistant twice', () => {
    spec
      .given([created])
      .when({ type: 'CreateAssistant', data: { ...ids, profile } })
      .thenThrows(DomainError, messages.assistantExists);
  });

  it('enforces the required fields and word limits', () => {
    const tooLong = Array.from({ length: 1001 }, () => 'word').join(' ');
    spec
      .given([])
      .when({ type: 'CreateAssistant', data: { ...ids, profile: { ...profile, name: '  ' } } })
      .thenThrows(DomainError, messages.assistantNameRequired);
    spec
      .given([])
      .when({ type: 'CreateAssistant', data: { ...ids, profile: { ...profile, instructions: '' } } })
      .thenThrows(DomainError, messages.requiredFields);
    spec
      .given([])
      .when({ type: 'CreateAssistant', data: { ...ids, profile: { ...profile, description: tooLong } } })
      .thenThrows(DomainError, messages.descriptionTooLong);
    spec
      .given([])
      .when({ type: 'CreateAssistant', data: { ...ids, profile: { ...profile, instructions: tooLong } } })
      .thenThrows(DomainError, messages.instructionsTooLong);
    spec
      .given([])
      .when({
        type: 'CreateAssistant',
        data: { ...ids, profile: { ...profile, payment_processing: { enabled: true, sales_prompt: tooLong } } },
      })
      .thenThrows(DomainError, messages.salesPromptTooLong);
    spec
      .given([])
      .when({ type: 'CreateAssistant', data: { ...ids, profile: { ...profile, website_url: 'javascript:alert(1)' } } })
      .thenThrows(DomainError, messages.invalidWebsiteUrl);
  });

  it('enables sales mode only while the crawler is on', () => {
    spec
      .given([created])
      .when({
        type: 'UpdateAssistant',
        data: {
          assistantId: 'a1',
          ownerId: 'owner-1',
          changes: { payment_processing: { enabled: true, sales_prompt: 'Sell' } },
        },
      })
      .then([salesOn]);
    const crawlerOff: AssistantEvent = {
      type: 'AssistantUpdated',
      data: { assistantId: 'a1', changes: { web_crawler: { ...profile.web_crawler, enabled: false } } },
    };
    spec
      .given([created, crawlerOff])
      .when({
        type: 'UpdateAssistant',
        data: {
          assistantId: 'a1',
          ownerId: 'owner-1',
          changes: { payment_processing: { enabled: true, sales_prompt: 'Sell' } },
        },
      })
      .thenThrows(DomainError, messages.salesModeNeedsCrawler);
  });

  it('turns sales mode off when the crawler is turned off', () => {
    spec
      .given([created, salesOn])
      .when({
        type: 'UpdateAssistant',
        data: {
          assistantId: 'a1',
          ownerId: 'owner-1',
          changes: { web_crawler: { ...profile.web_crawler, enabled: false } },
        },
      })
      .then([
        {
          type: 'AssistantUpdated',
          data: {
            assistantId: 'a1',
            changes: {
              web_crawler: { ...profile.web_crawler, enabled: false },
              payment_processing: { enabled: false, sales_prompt: 'Sell' },
            },
          },
        },
      ]);
  });

  it('records only what changed, and nothing when nothing changed', () => {
    spec
      .given([created])
      .when({
        type: 'UpdateAssistant',
        data: { assistantId: 'a1', ownerId: 'owner-1', changes: { name: 'Shop helper', chat_limit: 50 } },
      })
      .then([{ type: 'AssistantUpdated', data: { assistantId: 'a1', changes: { chat_limit: 50 } } }]);
    spec
      .given([created])
      .when({
        type: 'UpdateAssistant',
        data: { assistantId: 'a1', ownerId: 'owner-1', changes: { name: 'Shop helper' } },
      })
      .then([]);
  });

  it("answers another owner's assistant as not found", () => {
    spec
      .given([created])
      .when({ type: 'DeleteAssistant', data: { assistantId: 'a1', ownerId: 'owner-2' } })
      .thenThrows(DomainError, messages.assistantNotFound);
    spec
      .given([created])
      .when({ type: 'UpdateAssistant', data: { assistantId: 'a1', ownerId: 'owner-2', changes: { name: 'x' } } })
      .thenThrows(DomainError, messages.assistantNotFound);
  });

  it('deletes once; a deleted assistant cannot be changed', () => {
    const deleted: AssistantEvent = { type: 'AssistantDeleted', data: { assistantId: 'a1' } };
    spec
      .given([created])
      .when({ type: 'DeleteAssistant', data: { assistantId: 'a1', ownerId: 'owner-1' } })
      .then([deleted]);
    spec
      .given([created, deleted])
      .when({ type: 'DeleteAssistant', data: { assistantId: 'a1', ownerId: 'owner-1' } })
      .thenThrows(DomainError);
    spec
      .given([created, deleted])
      .when({ type: 'UpdateAssistant', data: { assistantId: 'a1', ownerId: 'owner-1', changes: { name: 'x' } } })
      .thenThrows(DomainError);
  });
});

describe('assistant decider: share links', () => {
  const issued: AssistantEvent = {
    type: 'ShareTokenGenerated',
    data: { assistantId: 'a1', token: 'tok_aaaaaaaaaaaaaaaa' },
  };
  it('issues a token once and keeps it unless asked to rotate', () => {
    spec
      .given([created])
      .when({
        type: 'IssueShareToken',
        data: { assistantId: 'a1', ownerId: 'owner-1', token: 'tok_aaaaaaaaaaaaaaaa', rotate: false },
      })
      .then([issued]);
    spec
      .given([created, issued])
      .when({
        type: 'IssueShareToken',
        data: { assistantId: 'a1', ownerId: 'owner-1', token: 'tok_bbbbbbbbbbbbbbbb', rotate: false },
      })
      .then([]);
    spec
      .given([created, issued])
      .when({
        type: 'IssueShareToken',
        data: { assistantId: 'a1', ownerId: 'owner-1', token: 'tok_bbbbbbbbbbbbbbbb', rotate: true },
      })
      .then([{ type: 'ShareTokenGenerated', data: { assistantId: 'a1', token: 'tok_bbbbbbbbbbbbbbbb' } }]);
  });
  it('revokes an existing token; revoking none records nothing', () => {
    spec
      .given([created, issued])
      .when({ type: 'RevokeShareToken', data: { assistantId: 'a1', ownerId: 'owner-1' } })
      .then([{ type: 'ShareTokenRevoked', data: { assistantId: 'a1' } }]);
    spec
      .given([created])
      .when({ type: 'RevokeShareToken', data: { assistantId: 'a1', ownerId: 'owner-1' } })
      .then([]);
  });
  it("refuses another owner's share requests as not found", () => {
    spec
      .given([created])
      .when({
        type: 'IssueShareToken',
        data: { assistantId: 'a1', ownerId: 'owner-2', token: 'tok_aaaaaaaaaaaaaaaa', rotate: false },
      })
      .thenThrows(DomainError);
  });
});

describe('assistant decider: curated answers (issue 26)', () => {
  const qa = (qaId: string) => ({ qaId, question: 'How much is a haircut?', answer: '80 ILS' });
  const curate = (answers: ReturnType<typeof qa>[], limit = 2, ownerId = 'owner-1') => ({
    type: 'CurateAnswers' as const,
    data: { assistantId: 'a1', ownerId, limit, answers },
  });
  const curated = (qaId: string): AssistantEvent => ({
    type: 'AnswerCurated',
    data: { assistantId: 'a1', ownerId: 'owner-1', curatedBy: 'owner-1', ...qa(qaId) },
  });

  it('records a Q&A with who curated it, up to the plan’s count, and an import all or nothing', () => {
    spec
      .given([created])
      .when(curate([qa('qa_1')]))
      .then([curated('qa_1')]);
    spec
      .given([created, curated('qa_1')])
      .when(curate([qa('qa_1')]))
      .then([]);
    spec
      .given([created, curated('qa_1')])
      .when(curate([qa('qa_2'), qa('qa_3')]))
      .thenThrows(DomainError, curatedMessages.limitReached(2));
    spec
      .given([created, curated('qa_1'), { type: 'CuratedAnswerDeleted', data: { assistantId: 'a1', qaId: 'qa_1' } }])
      .when(curate([qa('qa_2'), qa('qa_3')]))
      .then([curated('qa_2'), curated('qa_3')]);
  });

  it('refuses an empty question or answer, another owner, and an unknown Q&A', () => {
    spec
      .given([created])
      .when(curate([{ qaId: 'qa_1', question: ' ', answer: 'x' }]))
      .thenThrows(DomainError, curatedMessages.required);
    spec
      .given([created])
      .when(curate([qa('qa_1')], 2, 'owner-2'))
      .thenThrows(DomainError, messages.assistantNotFound);
    spec
      .given([created])
      .when({ type: 'DeleteCuratedAnswer', data: { assistantId: 'a1', ownerId: 'owner-1', qaId: 'qa_9' } })
      .thenThrows(DomainError, curatedMessages.notFound);
    spec
      .given([created, curated('qa_1')])
      .when({
        type: 'EditCuratedAnswer',
        data: { assistantId: 'a1', ownerId: 'owner-2', qaId: 'qa_1', question: 'q', answer: 'a' },
      })
      .thenThrows(DomainError, messages.assistantNotFound);
  });

  it('edits and deletes the owner’s Q&A', () => {
    spec
      .given([created, curated('qa_1')])
      .when({
        type: 'EditCuratedAnswer',
        data: { assistantId: 'a1', ownerId: 'owner-1', qaId: 'qa_1', question: ' q ', answer: 'a' },
      })
      .then([
        {
          type: 'CuratedAnswerEdited',
          data: { assistantId: 'a1', ownerId: 'owner-1', qaId: 'qa_1', question: 'q', answer: 'a' },
        },
      ]);
    spec
      .given([created, curated('qa_1')])
      .when({ type: 'DeleteCuratedAnswer', data: { assistantId: 'a1', ownerId: 'owner-1', qaId: 'qa_1' } })
      .then([{ type: 'CuratedAnswerDeleted', data: { assistantId: 'a1', qaId: 'qa_1' } }]);
  });
});
