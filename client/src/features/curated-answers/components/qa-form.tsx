import '../locales';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { QaFields } from './qa-fields';

/** The add / edit form of one Q&A. */
export function QaForm({
  initial,
  mode = initial ? 'edit' : 'add',
  busy,
  onSave,
  onCancel,
}: {
  initial?: { question: string; answer: string };
  /** 'add' with `initial`: a new Q&A started from a visitor's question (its answer field focused). */
  mode?: 'add' | 'edit';
  busy: boolean;
  onSave: (qa: { question: string; answer: string }) => void;
  onCancel?: () => void;
}) {
  const { t } = useTranslation('qa');
  const [question, setQuestion] = useState(initial?.question ?? '');
  const [answer, setAnswer] = useState(initial?.answer ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!question.trim() || !answer.trim()) return setProblem(t('required'));
    setProblem(null);
    onSave({ question, answer });
    if (mode === 'add') {
      setQuestion('');
      setAnswer('');
    }
  };
  return (
    <form onSubmit={submit} className="qa-form">
      <QaFields
        question={question}
        answer={answer}
        onQuestion={setQuestion}
        onAnswer={setAnswer}
        answerLabel="answer"
        autoFocusAnswer={mode === 'add' && Boolean(initial)}
      />
      {problem ? (
        <p className="field-error" role="alert">
          {problem}
        </p>
      ) : null}
      <Button type="submit" disabled={busy}>
        {mode === 'edit' ? t('save') : t('add')}
      </Button>
      {onCancel ? (
        <Button variant="ghost" onClick={onCancel}>
          {t('cancel')}
        </Button>
      ) : null}
    </form>
  );
}
