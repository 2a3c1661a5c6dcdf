import { CreateAssistantPage } from '@/features/assistants/components/create-assistant-page';
import { uploadFile } from '@/features/files/api/upload-file';
import { KnowledgeFileInput } from '@/features/files/components/knowledge-file-input';

/** Composes the create form (assistants) with the files feature's upload for the optional first file. */
export function Component() {
  return (
    <CreateAssistantPage
      upload={(assistantId, file) => uploadFile({ assistantId, file })}
      fileInput={(onFile) => <KnowledgeFileInput onFile={onFile} />}
    />
  );
}
