import { describe, it } from 'vitest';
import { DomainError } from '../../platform/commands/decider.js';
import { deciderSpec } from '../../testing/decider-spec.js';
import { knowledgeFileDecider, type KnowledgeFileEvent } from './knowledge-file.decider.js';

const spec = deciderSpec(knowledgeFileDecider);
const sha = 'a'.repeat(64);
const uploadedData = {
  fileId: 'f1',
  assistantId: 'a1',
  ownerId: 'o1',
  filename: 'menu.pdf',
  kind: 'pdf' as const,
  bytes: 10,
  contentSha256: sha,
  sourceUrl: null,
};
const uploaded: KnowledgeFileEvent = { type: 'KnowledgeFileUploaded', data: uploadedData };
const ingestedData = {
  fileId: 'f1',
  assistantId: 'a1',
  textSha256: sha,
  chunksSha256: sha,
  chunkCount: 2,
  characters: 100,
  language: 'en' as const,
  elapsedMs: 5,
};

describe('knowledge file decider', () => {
  it('records an upload once', () => {
    spec.given([]).when({ type: 'UploadKnowledgeFile', data: uploadedData }).then([uploaded]);
    spec.given([uploaded]).when({ type: 'UploadKnowledgeFile', data: uploadedData }).thenThrows(DomainError);
  });
  it('records the first ingestion outcome and ignores redeliveries', () => {
    spec
      .given([uploaded])
      .when({ type: 'RecordIngestion', data: { ingested: ingestedData } })
      .then([{ type: 'KnowledgeFileIngested', data: ingestedData }]);
    spec
      .given([uploaded, { type: 'KnowledgeFileIngested', data: ingestedData }])
      .when({ type: 'RecordIngestion', data: { ingested: ingestedData } })
      .then([]);
    spec
      .given([uploaded])
      .when({
        type: 'RecordIngestion',
        data: { failed: { fileId: 'f1', assistantId: 'a1', reason: 'The PDF is password-protected' } },
      })
      .then([
        {
          type: 'KnowledgeFileIngestionFailed',
          data: { fileId: 'f1', assistantId: 'a1', reason: 'The PDF is password-protected' },
        },
      ]);
  });
  it('does not ingest a file deleted before its ingestion finished', () => {
    spec
      .given([uploaded, { type: 'KnowledgeFileDeleted', data: { fileId: 'f1', assistantId: 'a1' } }])
      .when({ type: 'RecordIngestion', data: { ingested: ingestedData } })
      .then([]);
  });
  it("deletes only the owner's file", () => {
    spec
      .given([uploaded])
      .when({ type: 'DeleteKnowledgeFile', data: { fileId: 'f1', ownerId: 'o2' } })
      .thenThrows(DomainError);
    spec
      .given([uploaded])
      .when({ type: 'DeleteKnowledgeFile', data: { fileId: 'f1', ownerId: 'o1' } })
      .then([{ type: 'KnowledgeFileDeleted', data: { fileId: 'f1', assistantId: 'a1' } }]);
  });
});
