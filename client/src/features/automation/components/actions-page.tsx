import '../locales';
import './automation.css';
import type { ActionDto } from '@kesher/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { notify } from '@/lib/toast-store';
import { actions } from '../api/actions';
import { inputLabel, matchesSearch } from '../automation-rules';
import { failureText } from '../failure-text';
import { ActionModal } from './action-modal';
import { ConfirmDelete } from './confirm-delete';
import { ListState } from './list-state';
import { PageHead } from './page-head';
import { TestActionModal } from './test-action-modal';

const TYPES = ['all', 'api', 'knowledge_base'] as const;

/** /actions (spec part 2 §2): type filter and search, API and knowledge-base cards, Test, the modal, delete after a confirmation. */
export function ActionsPage() {
  const { t } = useTranslation('automation');
  const [search, setSearch] = useState('');
  const [type, setType] = useState<(typeof TYPES)[number]>('all');
  const [editing, setEditing] = useState<ActionDto | 'new' | null>(null);
  const [testing, setTesting] = useState<ActionDto | null>(null);
  const [deleting, setDeleting] = useState<ActionDto | null>(null);
  const list = actions.useList();
  const remove = actions.useRemove();
  const shown = (list.data ?? []).filter(
    (a) => (type === 'all' || a.type === type) && matchesSearch(search, a.title, a.description),
  );

  return (
    <section className="page automation-page">
      <PageHead
        title={t('actionsTitle')}
        subtitle={t('actionsSubtitle')}
        action={<Button onClick={() => setEditing('new')}>{t('addAction')}</Button>}
      />
      <div className="automation-filters">
        <div className="field">
          <label htmlFor="action-type">{t('type')}</label>
          <select id="action-type" value={type} onChange={(e) => setType(e.target.value as (typeof TYPES)[number])}>
            {TYPES.map((value) => (
              <option key={value} value={value}>
                {value === 'all' ? t('allTypes') : t(`type_${value}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="action-search">{t('search')}</label>
          <input
            id="action-search"
            type="search"
            value={search}
            placeholder={t('actionsSearch')}
            onChange={(e) => setSearch(e.target.value)}
          />
        </div>
      </div>
      <ListState query={list} shown={shown} emptyTitle={t('noActions')} emptyHint={t('noActionsHint')}>
        {(items) => (
          <ul className="card-grid automation-grid">
            {items.map((action) => (
              <li key={action.id}>
                <article className="card automation-card" aria-label={action.title}>
                  <div className="automation-card-top">
                    <span className={`badge automation-type-${action.type}`}>{t(`type_${action.type}`)}</span>
                  </div>
                  <h2 dir="auto">{action.title}</h2>
                  {action.description ? (
                    <p className="automation-text" dir="auto">
                      {action.description}
                    </p>
                  ) : null}
                  {action.type === 'api' ? (
                    <>
                      <p className="automation-endpoint" dir="ltr">
                        <span className="badge">{action.api_method}</span>{' '}
                        <code>
                          {action.endpoint_name
                            ? `${action.endpoint_name}:${action.api_endpoint}`
                            : action.api_endpoint}
                        </code>
                      </p>
                      {action.api_inputs.length > 0 ? (
                        <p className="small">
                          <span className="muted">{t('inputs')}: </span>
                          <span dir="ltr">{action.api_inputs.map(inputLabel).join(', ')}</span>
                        </p>
                      ) : null}
                    </>
                  ) : (
                    <div>
                      <span className="muted small">{t('sources')}:</span>
                      <ul className="automation-phrases">
                        {action.kb_sources.map((source) => (
                          <li key={source.url} dir="ltr" className="automation-url">
                            {source.name}
                          </li>
                        ))}
                      </ul>
                    </div>
                  )}
                  <div className="card-actions">
                    {action.type === 'api' ? (
                      <Button variant="secondary" onClick={() => setTesting(action)}>
                        {t('test')}
                      </Button>
                    ) : null}
                    <Button variant="secondary" onClick={() => setEditing(action)}>
                      {t('edit')}
                    </Button>
                    <Button variant="ghost" className="automation-delete" onClick={() => setDeleting(action)}>
                      {t('delete')}
                    </Button>
                  </div>
                </article>
              </li>
            ))}
          </ul>
        )}
      </ListState>
      {editing ? <ActionModal action={editing === 'new' ? null : editing} onClose={() => setEditing(null)} /> : null}
      {testing ? <TestActionModal action={testing} onClose={() => setTesting(null)} /> : null}
      {deleting ? (
        <ConfirmDelete
          question={t('confirmDeleteAction')}
          busy={remove.isPending}
          onClose={() => setDeleting(null)}
          onConfirm={() =>
            remove.mutate(deleting.id, {
              onSuccess: () => (notify.success(t('actionDeleted')), setDeleting(null)),
              onError: (error) => (notify.error(failureText(t('deleteActionFailed'), error)), setDeleting(null)),
            })
          }
        />
      ) : null}
    </section>
  );
}
