import '../locales';
import './automation.css';
import type { WorkflowDto } from '@kesher/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { notify } from '@/lib/toast-store';
import { actions as actionsApi } from '../api/actions';
import { workflowStatsQuery } from '../api/automation-history';
import { workflows } from '../api/workflows';
import { CARD_PHRASES, matchesSearch } from '../automation-rules';
import { failureText } from '../failure-text';
import { ConfirmDelete } from './confirm-delete';
import { LinkedActionNames } from './linked-action-names';
import { ListState } from './list-state';
import { PageHead } from './page-head';
import { WorkflowMatchBox } from './workflow-match-box';
import { WorkflowModal } from './workflow-modal';

/** /workflows (spec part 2 §2): search by title or trigger, the cards, the create/edit modal, delete after a confirmation. */
export function WorkflowsPage() {
  const { t } = useTranslation('automation');
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<WorkflowDto | 'new' | null>(null);
  const [deleting, setDeleting] = useState<WorkflowDto | null>(null);
  const list = workflows.useList();
  const actionList = actionsApi.useList();
  const remove = workflows.useRemove();
  // How often each workflow fired (analytics); a card waits for nothing: no count until it arrives.
  const stats = useQuery(workflowStatsQuery());
  const firedOf = (id: string) => stats.data?.workflows.find((w) => w.workflow_id === id);
  const shown = (list.data ?? []).filter((w) => matchesSearch(search, w.title, w.trigger_condition));

  return (
    <section className="page automation-page">
      <PageHead
        title={t('workflowsTitle')}
        subtitle={t('workflowsSubtitle')}
        action={<Button onClick={() => setEditing('new')}>{t('addWorkflow')}</Button>}
      />
      <div className="automation-filters">
        <div className="field">
          <label htmlFor="workflow-search">{t('search')}</label>
          <input
            id="workflow-search"
            type="search"
            value={search}
            placeholder={t('workflowsSearch')}
            onChange={(e) => setSearch(e.target.value)}
          />
        </div>
      </div>
      {list.data && list.data.length > 0 ? <WorkflowMatchBox /> : null}
      <ListState query={list} shown={shown} emptyTitle={t('noWorkflows')} emptyHint={t('noWorkflowsHint')}>
        {(items) => (
          <ul className="card-grid automation-grid">
            {items.map((workflow) => (
              <li key={workflow.id}>
                <article className="card automation-card" aria-label={workflow.title}>
                  <div className="automation-card-top">
                    <h2 dir="auto">{workflow.title}</h2>
                    {stats.data ? (
                      <FiredBadge
                        days={stats.data.days}
                        fired={firedOf(workflow.id)?.fired ?? 0}
                        conversations={firedOf(workflow.id)?.conversations ?? 0}
                      />
                    ) : null}
                  </div>
                  <p className="small">
                    <span className="muted">{t('trigger')}: </span>
                    <span dir="auto">{workflow.trigger_condition}</span>
                  </p>
                  {workflow.training_phrases.length > 0 ? (
                    <div>
                      <span className="muted small">{t('examplePhrases')}:</span>
                      <ul className="automation-phrases">
                        {workflow.training_phrases.slice(0, CARD_PHRASES).map((phrase) => (
                          <li key={phrase} dir="auto">
                            “{phrase}”
                          </li>
                        ))}
                      </ul>
                      {workflow.training_phrases.length > CARD_PHRASES ? (
                        <span className="muted small">
                          {t('morePhrases', { count: workflow.training_phrases.length - CARD_PHRASES })}
                        </span>
                      ) : null}
                    </div>
                  ) : null}
                  <LinkedActionNames linked={workflow.linked_actions} actions={actionList.data} />
                  <div className="card-actions">
                    <Button variant="secondary" onClick={() => setEditing(workflow)}>
                      {t('edit')}
                    </Button>
                    <Button variant="ghost" className="automation-delete" onClick={() => setDeleting(workflow)}>
                      {t('delete')}
                    </Button>
                  </div>
                </article>
              </li>
            ))}
          </ul>
        )}
      </ListState>
      {editing ? (
        <WorkflowModal workflow={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      ) : null}
      {deleting ? (
        <ConfirmDelete
          question={t('confirmDeleteWorkflow')}
          busy={remove.isPending}
          onClose={() => setDeleting(null)}
          onConfirm={() =>
            remove.mutate(deleting.id, {
              onSuccess: () => (notify.success(t('workflowDeleted')), setDeleting(null)),
              onError: (error) => (notify.error(failureText(t('deleteWorkflowFailed'), error)), setDeleting(null)),
            })
          }
        />
      ) : null}
    </section>
  );
}

function FiredBadge({ days, fired, conversations }: { days: number; fired: number; conversations: number }) {
  const { t } = useTranslation('automation');
  const detail = t('firedDetail', { days, count: fired, conversations });
  // The short badge for the eye (its hover title says more); screen readers read the whole sentence.
  return (
    <>
      <span className={`badge${fired > 0 ? ' badge-ready' : ''}`} title={detail} aria-hidden="true">
        {t('firedBadge', { count: fired })}
      </span>
      <span className="visually-hidden">{detail}</span>
    </>
  );
}
