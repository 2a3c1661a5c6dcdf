import '../locales';
import './automation.css';
import { GUIDELINE_CATEGORIES, type GuidelineDto } from '@kesher/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { notify } from '@/lib/toast-store';
import { actions as actionsApi } from '../api/actions';
import { guidelines } from '../api/guidelines';
import { matchesSearch } from '../automation-rules';
import { failureText } from '../failure-text';
import { ConfirmDelete } from './confirm-delete';
import { GuidelineModal } from './guideline-modal';
import { LinkedActionNames } from './linked-action-names';
import { ListState } from './list-state';
import { PageHead } from './page-head';

/** /guidelines (spec part 2 §2, §4): category filter and search, cards with the active toggle, the modal, delete after a confirmation. */
export function GuidelinesPage() {
  const { t } = useTranslation('automation');
  const [search, setSearch] = useState('');
  const [category, setCategory] = useState<string>('all');
  const [editing, setEditing] = useState<GuidelineDto | 'new' | null>(null);
  const [deleting, setDeleting] = useState<GuidelineDto | null>(null);
  const list = guidelines.useList();
  const actionList = actionsApi.useList();
  const toggle = guidelines.useUpdate();
  // The switch answers the hand at once: the new value is held here until the server has said yes or no.
  const [flipping, setFlipping] = useState<Record<string, boolean>>({});
  const activeOf = (g: GuidelineDto) => flipping[g.id] ?? g.active;
  const flip = (g: GuidelineDto) => {
    // §4: sends the opposite of the current value; a failure is only logged (§8) and the switch goes back.
    const active = !g.active;
    setFlipping((held) => ({ ...held, [g.id]: active }));
    toggle.mutate(
      { id: g.id, body: { active } },
      {
        onError: (error) => console.error('guideline toggle failed', error),
        onSettled: () => setFlipping(({ [g.id]: _, ...rest }) => rest),
      },
    );
  };
  const remove = guidelines.useRemove();
  const shown = (list.data ?? []).filter(
    (g) => (category === 'all' || g.category === category) && matchesSearch(search, g.title, g.instructions),
  );

  return (
    <section className="page automation-page">
      <PageHead
        title={t('guidelinesTitle')}
        subtitle={t('guidelinesSubtitle')}
        action={<Button onClick={() => setEditing('new')}>{t('addGuideline')}</Button>}
      />
      <div className="automation-filters">
        <div className="field">
          <label htmlFor="guideline-category">{t('category')}</label>
          <select id="guideline-category" value={category} onChange={(e) => setCategory(e.target.value)}>
            <option value="all">{t('allCategories')}</option>
            {GUIDELINE_CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {t(`category_${c}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="guideline-search">{t('search')}</label>
          <input
            id="guideline-search"
            type="search"
            value={search}
            placeholder={t('guidelinesSearch')}
            onChange={(e) => setSearch(e.target.value)}
          />
        </div>
      </div>
      <ListState query={list} shown={shown} emptyTitle={t('noGuidelines')} emptyHint={t('noGuidelinesHint')}>
        {(items) => (
          <ul className="card-grid automation-grid">
            {items.map((guideline) => (
              <li key={guideline.id}>
                <article
                  className={`card automation-card${activeOf(guideline) ? '' : ' automation-card-inactive'}`}
                  aria-label={guideline.title}
                >
                  <div className="automation-card-top">
                    <span className={`badge automation-category-${guideline.category}`}>
                      {t(`category_${guideline.category}`)}
                    </span>
                    <label className="switch-field automation-switch">
                      <input
                        type="checkbox"
                        role="switch"
                        aria-label={t('toggleActive', { title: guideline.title })}
                        checked={activeOf(guideline)}
                        disabled={guideline.id in flipping}
                        onChange={() => flip(guideline)}
                      />
                      <span aria-hidden="true">{activeOf(guideline) ? t('active') : t('inactive')}</span>
                    </label>
                  </div>
                  <h2 dir="auto">{guideline.title}</h2>
                  <p className="automation-text" dir="auto">
                    {guideline.instructions}
                  </p>
                  <LinkedActionNames linked={guideline.linked_actions} actions={actionList.data} />
                  <div className="card-actions">
                    <Button variant="secondary" onClick={() => setEditing(guideline)}>
                      {t('edit')}
                    </Button>
                    <Button variant="ghost" className="automation-delete" onClick={() => setDeleting(guideline)}>
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
        <GuidelineModal guideline={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      ) : null}
      {deleting ? (
        <ConfirmDelete
          question={t('confirmDeleteGuideline')}
          busy={remove.isPending}
          onClose={() => setDeleting(null)}
          onConfirm={() =>
            remove.mutate(deleting.id, {
              onSuccess: () => (notify.success(t('guidelineDeleted')), setDeleting(null)),
              onError: (error) => (notify.error(failureText(t('deleteGuidelineFailed'), error)), setDeleting(null)),
            })
          }
        />
      ) : null}
    </section>
  );
}
