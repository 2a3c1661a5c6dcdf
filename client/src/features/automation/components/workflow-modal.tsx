import type { WorkflowBodyInput, WorkflowDto } from '@kesher/contracts';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { TextAreaField, TextField } from '@/components/ui/field';
import { Modal } from '@/components/ui/modal';
import { notify } from '@/lib/toast-store';
import { actions as actionsApi } from '../api/actions';
import { workflows } from '../api/workflows';
import { cleanPhrases, RECOMMENDED_PHRASES } from '../automation-rules';
import { failureText } from '../failure-text';
import { LinkedActionsField } from './linked-actions-field';

interface Props {
  /** null: create mode. */
  workflow: WorkflowDto | null;
  onClose: () => void;
}

/**
 * Spec §2 workflow modal: title*, trigger condition*, training phrases (add/remove, 5 recommended),
 * instructions*, and the actions checklist. Required fields are marked, not checked (§5): the server
 * says what is missing.
 */
export function WorkflowModal({ workflow, onClose }: Props) {
  const { t } = useTranslation('automation');
  const formId = useId();
  const [title, setTitle] = useState(workflow?.title ?? '');
  const [trigger, setTrigger] = useState(workflow?.trigger_condition ?? '');
  const [phrases, setPhrases] = useState<string[]>(
    workflow?.training_phrases.length ? workflow.training_phrases : [''],
  );
  const [instructions, setInstructions] = useState(workflow?.instructions ?? '');
  const [linked, setLinked] = useState<string[]>(workflow?.linked_actions ?? []);
  const actionList = actionsApi.useList();
  const create = workflows.useCreate();
  const update = workflows.useUpdate();
  const busy = create.isPending || update.isPending;
  const filled = cleanPhrases(phrases).length;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body: WorkflowBodyInput = {
      title,
      trigger_condition: trigger,
      training_phrases: cleanPhrases(phrases),
      instructions,
      linked_actions: linked,
    };
    if (workflow) {
      update.mutate(
        { id: workflow.id, body },
        {
          onSuccess: () => (notify.success(t('workflowUpdated')), onClose()),
          onError: (error) => notify.error(failureText(t('updateWorkflowFailed'), error)),
        },
      );
    } else {
      create.mutate(body, {
        onSuccess: () => (notify.success(t('workflowCreated')), onClose()),
        onError: (error) => notify.error(failureText(t('createWorkflowFailed'), error)),
      });
    }
  };

  return (
    <Modal
      title={workflow ? t('editWorkflow') : t('createWorkflow')}
      onClose={onClose}
      wide
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            {t('cancel')}
          </Button>
          <Button type="submit" form={formId} disabled={busy}>
            {busy ? t('saving') : workflow ? t('save') : t('createWorkflow')}
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
        <TextAreaField
          label={`${t('triggerCondition')} *`}
          aria-required="true"
          hint={t('triggerHint')}
          rows={2}
          value={trigger}
          onChange={(e) => setTrigger(e.target.value)}
          dir="auto"
        />
        <fieldset className="field automation-fieldset">
          <legend>{t('trainingPhrases')}</legend>
          <p className="field-hint">{t('phrasesHint')}</p>
          <ol className="automation-rows">
            {phrases.map((phrase, index) => (
              <li key={index} className="automation-row">
                <input
                  aria-label={t('phraseLabel', { n: index + 1 })}
                  value={phrase}
                  dir="auto"
                  onChange={(e) => setPhrases(phrases.map((p, i) => (i === index ? e.target.value : p)))}
                  onKeyDown={(e) => {
                    // Enter in a phrase adds the next one instead of sending the form half-written.
                    if (e.key === 'Enter') {
                      e.preventDefault();
                      setPhrases([...phrases, '']);
                    }
                  }}
                />
                <Button
                  variant="ghost"
                  aria-label={t('removePhrase', { n: index + 1 })}
                  onClick={() => setPhrases(phrases.length > 1 ? phrases.filter((_, i) => i !== index) : [''])}
                >
                  ×
                </Button>
              </li>
            ))}
          </ol>
          <div className="automation-row-foot">
            <Button variant="secondary" onClick={() => setPhrases([...phrases, ''])}>
              {t('addPhrase')}
            </Button>
            <span className={filled < RECOMMENDED_PHRASES ? 'counter counter-warn' : 'counter'} aria-live="polite">
              {filled < RECOMMENDED_PHRASES
                ? t('phrasesCount', { count: filled })
                : t('phrasesEnough', { count: filled })}
            </span>
          </div>
        </fieldset>
        <TextAreaField
          label={`${t('instructions')} *`}
          aria-required="true"
          hint={t('workflowInstructionsHint')}
          rows={5}
          value={instructions}
          onChange={(e) => setInstructions(e.target.value)}
          dir="auto"
        />
        <LinkedActionsField actions={actionList.data} value={linked} onChange={setLinked} />
      </form>
    </Modal>
  );
}
