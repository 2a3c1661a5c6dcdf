import type { MessageDto, RunDto, ThreadDto } from '@kesher/contracts';
import type { AssistantRow } from '@kesher/projections/assistants/assistants.queries';
import type { MessageRow, RunRow, ThreadRow } from '@kesher/projections/threads/threads.queries';

export const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

export const toMessageDto = (row: MessageRow): MessageDto => ({
  id: row.id,
  object: 'thread.message',
  thread_id: row.thread_id,
  role: row.role,
  content: [{ type: 'text', text: { value: row.text, annotations: [] } }],
  created_at: row.created_at,
  run_id: row.run_id,
  sources: row.sources.map((s) => ({
    file_id: s.fileId,
    filename: s.filename,
    source_url: s.sourceUrl,
    section: s.section,
  })),
});

export const toThreadDto = (row: ThreadRow, assistant: Pick<AssistantRow, 'numeric_id'>): ThreadDto => ({
  id: row.id,
  thread_id: row.id,
  openai_thread_id: row.id,
  title: row.title,
  created_at: row.created_at,
  is_public: row.is_public,
  assistant_id: assistant.numeric_id,
  channel: row.channel,
});

/** A run's status as clients see it, and the error it ended with (the same words on every path). */
export function runStatusOf(
  row: Pick<RunRow, 'status' | 'error' | 'deadline_at'>,
  now: Date,
): Pick<RunDto, 'status' | 'last_error'> {
  // Expired on read: the sweep records it shortly, but no client ever sees a run past its deadline as running.
  const overdue =
    (row.status === 'queued' || row.status === 'in_progress') && row.deadline_at.getTime() <= now.getTime();
  const status = overdue ? 'expired' : row.status;
  const lastError =
    status === 'failed'
      ? { code: 'server_error', message: row.error ?? 'Unknown error occurred' }
      : status === 'expired'
        ? { code: 'expired', message: 'Assistant response timed out. Please try again.' }
        : null;
  return { status, last_error: lastError };
}

export function toRunDto(row: RunRow, assistant: Pick<AssistantRow, 'external_id'>, now: Date): RunDto {
  const { status, last_error: lastError } = runStatusOf(row, now);
  return {
    id: row.id,
    run_id: row.id,
    object: 'thread.run',
    thread_id: row.thread_id,
    assistant_id: assistant.external_id,
    status,
    last_error: lastError,
    created_at: row.created_at,
    expires_at: seconds(row.deadline_at),
    completed_at: row.settled_at,
    message_id: row.message_id,
  };
}
