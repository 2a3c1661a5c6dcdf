import type { CreateAssistantInput } from './api/create-assistant';
import type { AssistantFormValues } from './assistant-form-rules';

export type CreateStep = 'creating' | 'created' | 'uploading' | 'drive' | 'crawler' | 'done';
/** Spec §4: 20 while creating, 40 after, 50–60 uploading, 55–65 importing from Google Drive, 70 at crawler start, 100 at the end. */
export const stepProgress: Record<CreateStep, number> = {
  creating: 20,
  created: 40,
  uploading: 55,
  drive: 62,
  crawler: 70,
  done: 100,
};

/**
 * The Google Drive step, composed in by the route (the drive feature): imports the files the owner chose
 * into the new assistant, or answers where the browser goes to connect Drive for it. Null: nothing chosen.
 */
export type DriveStep = (
  assistantId: number,
) => Promise<{ failed: string[]; redirectTo?: undefined } | { redirectTo: string } | null>;
export const CREATE_REDIRECT_MS = 500;

export interface CreateFlowDeps {
  create: (body: CreateAssistantInput) => Promise<{ assistant_id: number; failed_functions?: string[] | undefined }>;
  upload?: (assistantId: number, file: File) => Promise<unknown>;
  /** Whether the owner chose anything from Google Drive, and the step that imports it (or connects Drive). */
  drive?: { chosen: () => boolean; run: DriveStep };
  /** Starts website scanning; null while the crawler service is not offered by the API. */
  startCrawler: StartCrawler | null;
  onStep: (step: CreateStep) => void;
  /** A side step went wrong; the assistant still exists. The key is in the assistants namespace. */
  onWarning: (key: string, values?: Record<string, string>) => void;
}

export function toCreateBody(values: AssistantFormValues): CreateAssistantInput {
  const url = values.websiteUrl.trim() || null;
  return {
    name: values.name,
    description: values.description,
    instructions: values.instructions,
    website_url: url,
    sales_mode: values.salesMode ? { enabled: true, sales_prompt: values.salesPrompt } : null,
    web_crawler: values.crawlerEnabled
      ? { enabled: true, web_crawler_config: { url, max_pages: 2000, max_depth: 10, delete_orphaned_pages: false } }
      : null,
  };
}

export type StartCrawler = (assistantId: number, url: string) => Promise<{ crawlId: string | null }>;

/**
 * Starts the website scanner for a saved assistant — the create flow's crawler step and the edit form's
 * toggle share it. A failure or a missing crawl id only warns (the assistant is saved either way); the
 * crawl id it returns is what the progress panel follows.
 */
export async function startCrawlerStep(
  assistantId: number,
  websiteUrl: string,
  startCrawler: StartCrawler | null,
  onFailed: () => void,
): Promise<string | null> {
  try {
    const crawlId = startCrawler ? (await startCrawler(assistantId, websiteUrl.trim())).crawlId : null;
    if (!crawlId) onFailed();
    return crawlId;
  } catch {
    onFailed();
    return null;
  }
}

/** The create flow: the assistant first, then each side step, whose failures only warn. */
export async function runCreateFlow(values: AssistantFormValues, file: File | null, deps: CreateFlowDeps) {
  deps.onStep('creating');
  const created = await deps.create(toCreateBody(values));
  deps.onStep('created');
  if (created.failed_functions?.length) deps.onWarning('warnFunctions', { names: created.failed_functions.join(', ') });

  if (file && deps.upload) {
    deps.onStep('uploading');
    try {
      await deps.upload(created.assistant_id, file);
    } catch (error) {
      deps.onWarning('warnUpload', { message: error instanceof Error ? error.message : String(error) });
    }
  }

  let redirectTo: string | undefined;
  if (deps.drive?.chosen()) {
    try {
      deps.onStep('drive');
      const done = await deps.drive.run(created.assistant_id);
      if (done && 'failed' in done) {
        if (done.failed.length) deps.onWarning('warnDrive', { names: done.failed.join(', ') });
      } else if (done) redirectTo = done.redirectTo;
    } catch (error) {
      deps.onWarning('warnDrive', { names: error instanceof Error ? error.message : String(error) });
    }
  }

  let crawlId: string | null = null;
  if (values.crawlerEnabled && values.websiteUrl.trim()) {
    deps.onStep('crawler');
    crawlId = await startCrawlerStep(created.assistant_id, values.websiteUrl, deps.startCrawler, () =>
      deps.onWarning('warnCrawler'),
    );
  }
  deps.onStep('done');
  return { assistantId: created.assistant_id, crawlId, redirectTo };
}
