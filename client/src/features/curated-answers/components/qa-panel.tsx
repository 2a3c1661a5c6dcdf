import { toCuratedCsv, type Qa } from '@kesher/contracts';
import '../locales';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { QaForm } from './qa-form';
import { UnansweredQuestions } from './unanswered-questions';
import { Icon } from '@/components/ui/icon';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { notify } from '@/lib/toast-store';
import { useAddQa, useDeleteQa, useEditQa, useImportQa, useQaList } from '../api/qa';

/** The Q&A tab lists the questions answered with no source over the same 30 days as the Q&A's hits. */
const UNANSWERED_DAYS = 30;

/** Manage Files' Q&A tab (issue 26): search, add, edit, delete, and CSV import and export. */
export function QaPanel({ assistant }: { assistant: { id: number; name: string } }) {
  const { t } = useTranslation('qa');
  const list = useQaList(assistant.id);
  const add = useAddQa(assistant.id);
  const edit = useEditQa(assistant.id);
  const remove = useDeleteQa(assistant.id);
  const importCsv = useImportQa(assistant.id);
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<string | null>(null);
  const failed = (error: unknown) => notify.error(`${t('error')}: ${errorMessage(error, t)}`);

  const needle = search.trim().toLocaleLowerCase();
  const shown = (list.data ?? []).filter(
    (qa: Qa) =>
      !needle || qa.question.toLocaleLowerCase().includes(needle) || qa.answer.toLocaleLowerCase().includes(needle),
  );

  const exportFile = () => {
    const url = URL.createObjectURL(new Blob([toCuratedCsv(list.data ?? [])], { type: 'text/csv;charset=utf-8' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = `qa-${assistant.id}.csv`;
    link.click();
    URL.revokeObjectURL(url);
  };
  const importFile = async (file: File | undefined) => {
    if (!file) return;
    importCsv.mutate(await file.text(), {
      onSuccess: (result) => notify.success(t('imported', result)),
      onError: failed,
    });
  };

  return (
    <section aria-label={t('tabQa')}>
      <p className="muted">{t('intro')}</p>
      <QaForm
        busy={add.isPending}
        onSave={(qa) => add.mutate(qa, { onSuccess: () => notify.success(t('added')), onError: failed })}
      />
      <div className="qa-tools">
        <input
          type="search"
          aria-label={t('search')}
          placeholder={t('search')}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
        <Button variant="secondary" onClick={exportFile} disabled={!list.data?.length}>
          {t('exportCsv')}
        </Button>
        <label className="btn btn-secondary">
          {t('importCsv')}
          <input type="file" accept=".csv,text/csv" hidden onChange={(e) => void importFile(e.target.files?.[0])} />
        </label>
      </div>
      {list.isPending ? (
        <Spinner label={t('loading')} />
      ) : list.isError && !list.data ? (
        <p className="form-error" role="alert">
          {errorMessage(list.error, t)}
        </p>
      ) : shown.length === 0 ? (
        <p className="muted">{list.data?.length ? t('noMatch') : t('empty')}</p>
      ) : (
        <ul className="file-list qa-list">
          {shown.map((qa) =>
            editing === qa.qa_id ? (
              <li key={qa.qa_id}>
                <QaForm
                  initial={qa}
                  busy={edit.isPending}
                  onCancel={() => setEditing(null)}
                  onSave={(changed) =>
                    edit.mutate({ qaId: qa.qa_id, ...changed }, { onSuccess: () => setEditing(null), onError: failed })
                  }
                />
              </li>
            ) : (
              <li key={qa.qa_id}>
                <div>
                  <strong dir="auto">{qa.question}</strong>
                  <span dir="auto" className="qa-answer">
                    {qa.answer}
                  </span>
                  <span className="muted small">{t('hits', { count: qa.hits_30d })}</span>
                </div>
                <Button variant="ghost" onClick={() => setEditing(qa.qa_id)}>
                  {t('edit')}
                </Button>
                <Button
                  variant="ghost"
                  aria-label={t('deleteQa', { question: qa.question })}
                  disabled={remove.isPending}
                  onClick={() =>
                    remove.mutate(qa.qa_id, { onSuccess: () => notify.success(t('deleted')), onError: failed })
                  }
                >
                  <Icon name="trash" />
                </Button>
              </li>
            ),
          )}
        </ul>
      )}
      <UnansweredQuestions days={UNANSWERED_DAYS} assistantId={assistant.id} />
    </section>
  );
}
