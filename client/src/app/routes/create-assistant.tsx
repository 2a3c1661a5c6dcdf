import { crawlerLimits } from '@kesher/contracts';
import { useRef } from 'react';
import { CreateAssistantPage } from '@/features/assistants/components/create-assistant-page';
import { crawlSession } from '@/features/crawler/crawl-session';
import { startCrawl } from '@/features/crawler/start-crawl';
import {
  DriveCreateChoice,
  type DriveChoice,
  runDriveCreateStep,
} from '@/features/drive/components/drive-create-choice';
import { uploadFile } from '@/features/files/api/upload-file';
import { KnowledgeFileInput } from '@/features/files/components/knowledge-file-input';

/** Composes the create form (assistants) with the files feature's first upload, the drive feature's import and the crawler feature's start. */
export function Component() {
  const driveChoice = useRef<DriveChoice>({ kind: 'none' });
  return (
    <CreateAssistantPage
      upload={(assistantId, file) => uploadFile({ assistantId, file })}
      fileInput={(onFile) => <KnowledgeFileInput onFile={onFile} />}
      drive={{
        input: <DriveCreateChoice onChange={(choice) => (driveChoice.current = choice)} />,
        chosen: () => driveChoice.current.kind !== 'none',
        run: (assistantId) => runDriveCreateStep(driveChoice.current, assistantId),
      }}
      // Spec §4/§9: the create flow crawls the whole site with the create defaults and follows it in the progress panel.
      startCrawler={(assistantId, url) => startCrawl(assistantId, url, crawlerLimits.create)}
      onCrawlStarted={(crawlId, url) => crawlSession.start(crawlId, url)}
    />
  );
}
