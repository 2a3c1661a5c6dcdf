import type { CuratedAnalytics } from '@kesher/contracts';
import '../locales';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { notify } from '@/lib/toast-store';
import { useCuratedAnalytics } from '../api/curated-analytics';
import { useAddQa } from '../api/qa';
import { QaForm } from './qa-form';

type Item = CuratedAnalytics['unanswered']['items'][number];

/** The Q&A form, prefilled with a visitor's question, saved on that question's assistant naming its conversation. */
function AddFromQuestion({ item, onDone }: { item: Item; onDone: () => void }) {
  const { t } = useTranslation('qa');
  const add = useAddQa(item.assistant_id);
  return (
    <QaForm
      mode="add"
      initial={{ question: item.question, answer: '' }}
      busy={add.isPending}
      onCancel={onDone}
      onSave={(qa) =>
        add.mutate(
          { ...qa, thread_id: item.thread_id },
          {
            onSuccess: () => {
              notify.success(t('added'));
              onDone();
            },
            onError: (error) => notify.error(`${t('error')}: ${errorMessage(error, t)}`),
          },
        )
      }
    />
  );
}

/**
 * "Questions answered with no source" (issue 26 item 4): visitors' questions the assistant answered
 * without any source (or could not answer), newest first, with how often each was asked. "Add to Q&A"
 * opens the Q&A form under it with the question written in; once saved, the question leaves the list and
 * the assistant answers it (and its paraphrases) with the owner's words. Of one assistant (the Q&A tab) or
 * of all of them, each named (the analytics page).
 */
export function UnansweredQuestions({ days, assistantId }: { days: number; assistantId?: number }) {
  const { t, i18n } = useTranslation('qa');
  const data = useCuratedAnalytics(days, assistantId);
  const [open, setOpen] = useState<string | null>(null);
  const titleId = useId();
  const date = new Intl.DateTimeFormat(i18n.language === 'he' ? 'he-IL' : 'en-GB', {
    dateStyle: 'medium',
    timeStyle: 'short',
  });
  const keyOf = (item: Item) => `${item.assistant_id}:${item.question}`;

  let body;
  if (data.isPending) body = <Spinner label={t('unansweredLoading')} />;
  else if (data.isError)
    body = (
      <p className="form-error" role="alert">
        {errorMessage(data.error, t)}
      </p>
    );
  else if (data.data.unanswered.items.length === 0) body = <p className="muted">{t('noUnanswered')}</p>;
  else
    body = (
      <>
        <p className="muted small">
          {t('unansweredCount', { questions: data.data.unanswered.questions, total: data.data.unanswered.total })}
        </p>
        <ul className="file-list qa-list unanswered-list">
          {data.data.unanswered.items.map((item) => (
            <li key={keyOf(item)}>
              <div>
                <strong dir="auto">{item.question}</strong>
                <span className="muted small">
                  {t('timesAsked', { count: item.times })} ·{' '}
                  {t('lastAsked', { date: date.format(new Date(item.last_asked_at)) })}
                  {assistantId === undefined ? <> · {t('assistantName', { name: item.assistant_name })}</> : null}
                </span>
                {open === keyOf(item) ? <AddFromQuestion item={item} onDone={() => setOpen(null)} /> : null}
              </div>
              {open === keyOf(item) ? null : (
                <Button
                  variant="secondary"
                  aria-label={t('addToQaFor', { question: item.question })}
                  onClick={() => setOpen(keyOf(item))}
                >
                  {t('addToQa')}
                </Button>
              )}
            </li>
          ))}
        </ul>
      </>
    );

  return (
    <section className="unanswered-questions" aria-labelledby={titleId}>
      <h3 id={titleId}>{t('unansweredTitle')}</h3>
      <p className="muted">{t('unansweredIntro')}</p>
      {body}
    </section>
  );
}
