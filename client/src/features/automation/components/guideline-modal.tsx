import {
  GUIDELINE_CATEGORIES,
  type GuidelineBodyInput,
  type GuidelineCategory,
  type GuidelineDto,
} from '@kesher/contracts';
import { type FormEvent, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { Modal } from '@/components/ui/modal';
import { notify } from '@/lib/toast-store';
import { actions as actionsApi } from '../api/actions';
import { guidelines } from '../api/guidelines';
import { insertMention, matchesSearch, mentionQuery } from '../automation-rules';
import { failureText } from '../failure-text';
import { LinkedActionsField } from './linked-actions-field';

interface Props {
  /** null: create mode. */
  guideline: GuidelineDto | null;
  onClose: () => void;
}

/**
 * Spec §2 guideline modal: title*, category*, instructions* (with example sentences for the category
 * when creating, and @ to reference an action), the linked actions, and Active (on by default).
 */
export function GuidelineModal({ guideline, onClose }: Props) {
  const { t } = useTranslation('automation');
  const formId = useId();
  const [title, setTitle] = useState(guideline?.title ?? '');
  const [category, setCategory] = useState<GuidelineCategory>(guideline?.category ?? 'tone');
  const [instructions, setInstructions] = useState(guideline?.instructions ?? '');
  const [caret, setCaret] = useState(0);
  const [linked, setLinked] = useState<string[]>(guideline?.linked_actions ?? []);
  const [active, setActive] = useState(guideline?.active ?? true);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const actionList = actionsApi.useList();
  const create = guidelines.useCreate();
  const update = guidelines.useUpdate();
  const busy = create.isPending || update.isPending;
  const mention = mentionQuery(instructions, caret);
  const suggestions =
    mention === null ? [] : (actionList.data ?? []).filter((a) => matchesSearch(mention, a.title)).slice(0, 5);

  const mentionAction = (id: string, title: string) => {
    const next = insertMention(instructions, caret, title);
    setInstructions(next.text);
    setCaret(next.caret);
    // Referencing an action in the text links it too, which is what the owner means by it.
    if (!linked.includes(id)) setLinked([...linked, id]);
    requestAnimationFrame(() => textarea.current?.setSelectionRange(next.caret, next.caret));
    textarea.current?.focus();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body: GuidelineBodyInput = { title, category, instructions, linked_actions: linked, active };
    if (guideline) {
      update.mutate(
        { id: guideline.id, body },
        {
          onSuccess: () => (notify.success(t('guidelineUpdated')), onClose()),
          onError: (error) => notify.error(failureText(t('updateGuidelineFailed'), error)),
        },
      );
    } else {
      create.mutate(body, {
        onSuccess: () => (notify.success(t('guidelineCreated')), onClose()),
        onError: (error) => notify.error(failureText(t('createGuidelineFailed'), error)),
      });
    }
  };

  return (
    <Modal
      title={guideline ? t('editGuideline') : t('createGuideline')}
      onClose={onClose}
      wide
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            {t('cancel')}
          </Button>
          <Button type="submit" form={formId} disabled={busy}>
            {busy ? t('saving') : guideline ? t('save') : t('createGuideline')}
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={submit} noValidate>
        <TextField
          label={`${t('fieldTitle')} *`}
          aria-required="true"
          value={title}
          onChange={(e) => setTitle(e.target.value)}
          dir="auto"
        />
        <div className="field">
          <label htmlFor={`${formId}-category`}>{`${t('category')} *`}</label>
          <select
            id={`${formId}-category`}
            aria-required="true"
            value={category}
            onChange={(e) => setCategory(e.target.value as GuidelineCategory)}
          >
            {GUIDELINE_CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {t(`category_${c}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${formId}-instructions`}>{`${t('instructions')} *`}</label>
          <textarea
            id={`${formId}-instructions`}
            ref={textarea}
            aria-required="true"
            aria-describedby={`${formId}-instructions-hint`}
            rows={5}
            dir="auto"
            value={instructions}
            onChange={(e) => {
              setInstructions(e.target.value);
              setCaret(e.target.selectionStart);
            }}
            onSelect={(e) => setCaret(e.currentTarget.selectionStart)}
          />
          <p id={`${formId}-instructions-hint`} className="field-hint">
            {t('guidelineInstructionsHint')}
          </p>
          {suggestions.length > 0 ? (
            <ul className="automation-chips" aria-label={t('mentionSuggestions')}>
              {suggestions.map((action) => (
                <li key={action.id}>
                  <button type="button" className="chip" onClick={() => mentionAction(action.id, action.title)}>
                    @{action.title}
                  </button>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
        {guideline ? null : (
          <div className="automation-examples">
            <p className="small muted">{t('examplesTitle', { category: t(`category_${category}`) })}</p>
            <ul>
              {[1, 2].map((n) => {
                const example = t(`example_${category}_${n}`);
                return (
                  <li key={n}>
                    <span dir="auto">{example}</span>{' '}
                    <button
                      type="button"
                      className="link-btn small"
                      onClick={() =>
                        setInstructions(instructions.trim() ? `${instructions.trim()}\n${example}` : example)
                      }
                    >
                      {t('useExample')}
                    </button>
                  </li>
                );
              })}
            </ul>
          </div>
        )}
        <LinkedActionsField actions={actionList.data} value={linked} onChange={setLinked} />
        <label className="field checkbox-field">
          <input type="checkbox" checked={active} onChange={(e) => setActive(e.target.checked)} />
          {t('active')}
        </label>
      </form>
    </Modal>
  );
}
