import { useParams } from 'react-router';
import { EditAssistantPage } from '@/features/assistants/components/edit-assistant-page';

export function Component() {
  const { assistantId } = useParams();
  return <EditAssistantPage key={assistantId} assistantId={Number(assistantId)} />;
}
