import '../locales';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { QaFields } from './qa-fields';
import { listMessages } from '@/lib/chat-core/chat-calls';
import { errorMessage } from '@/lib/api-error';
import { notify } from '@/lib/toast-store';
import { useAddQa } from '../api/qa';

const OWNER = { kind: 'owner' } as const;

/**
 * "Improve this answer" (issue 26), under an answer in the owner's chat and in a visitor's conversation
 * opened from Chat History: the owner writes the right answer; the question is the visitor's message
 * before it (editable). Saved as a curated answer naming the conversation, it answers from then on.
 */
export default function ImproveAnswer({
  assistantId,
  threadId,
  messageId,
}: {
  assistantId: number;
  threadId: string;
  messageId: string;
}) {
  const { t } = useTranslation('qa');
  const add = useAddQa(assistantId);
  const [open, setOpen] = useState(false);
  const [question, setQuestion] = useState('');
  const [answer, setAnswer] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const start = async () => {
    setOpen(true);
    try {
      // The question this answer answered: the last message of the visitor (or owner) before it.
      const messages = await listMessages(OWNER, threadId);
      const at = messages.findIndex((message) => message.id === messageId);
      const asked = messages
        .slice(0, at < 0 ? messages.length : at)
        .reverse()
        .find((message) => message.role === 'user');
      setQuestion((current) => current || asked?.text || '');
    } catch {
      // The owner writes the question themselves.
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!question.trim() || !answer.trim()) return setProblem(t('required'));
    setProblem(null);
    add.mutate(
      { question, answer, thread_id: threadId },
      {
        onSuccess: () => {
          notify.success(t('added'));
          setOpen(false);
          setAnswer('');
        },
        onError: (error) => notify.error(`${t('error')}: ${errorMessage(error, t)}`),
      },
    );
  };

  if (!open) {
    return (
      <Button variant="ghost" className="improve-answer" onClick={() => void start()}>
        {t('improve')}
      </Button>
    );
  }
  return (
    <form onSubmit={submit} className="qa-form improve-answer-form">
      <QaFields
        question={question}
        answer={answer}
        onQuestion={setQuestion}
        onAnswer={setAnswer}
        answerLabel="rightAnswer"
      />
      {problem ? (
        <p className="field-error" role="alert">
          {problem}
        </p>
      ) : null}
      <Button type="submit" disabled={add.isPending}>
        {t('save')}
      </Button>
      <Button variant="ghost" onClick={() => setOpen(false)}>
        {t('cancel')}
      </Button>
    </form>
  );
}
