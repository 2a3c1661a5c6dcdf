import type { ActionCallResultDto, ActionDto } from '@kesher/contracts';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Modal } from '@/components/ui/modal';
import { Spinner } from '@/components/ui/spinner';
import { localizedDetail } from '@/lib/api-error';
import { useAssistantsList } from '../api/assistants-list';
import { useTestAction } from '../api/test-action';
import { sampleTestInputs } from '../automation-rules';

const asJson = (value: unknown) => JSON.stringify(value, null, 2);

/**
 * Test (spec §7, §8): runs the action with the sample inputs (123 for a number, true for a boolean,
 * "test_value" otherwise) and shows "Test successful!" and the response as JSON, or "Test failed. Please
 * check your API configuration." with the reason. An action that calls a named endpoint first asks
 * whose endpoints (which assistant) to use.
 */
export function TestActionModal({ action, onClose }: { action: ActionDto; onClose: () => void }) {
  const { t } = useTranslation('automation');
  const id = useId();
  const needsAssistant = action.endpoint_name !== null;
  const assistants = useAssistantsList(needsAssistant);
  const [assistantId, setAssistantId] = useState<number | null>(null);
  const test = useTestAction();
  const inputs = sampleTestInputs(action.api_inputs);
  const run = (assistant_id?: number) => test.mutate({ id: action.id, test_inputs: inputs, assistant_id });

  useEffect(() => {
    if (!needsAssistant) run();
    // Runs once when the dialog opens; a named-endpoint action waits for the assistant.
  }, []);

  const result: ActionCallResultDto | undefined = test.data;
  const failed = test.isError || (result !== undefined && !result.success);
  return (
    <Modal
      title={t('testTitle', { title: action.title })}
      onClose={onClose}
      wide
      footer={
        <Button variant="secondary" onClick={onClose}>
          {t('cancel')}
        </Button>
      }
    >
      <p className="small muted">{t('testInputs')}</p>
      {/* Focusable: a long JSON scrolls, and a keyboard must be able to scroll it too. */}
      <pre className="automation-json" dir="ltr" tabIndex={0} aria-label={t('testInputs')}>
        {asJson({ test_inputs: inputs })}
      </pre>
      {needsAssistant ? (
        <div className="automation-row">
          <div className="field">
            <label htmlFor={`${id}-assistant`}>{t('testAssistant')}</label>
            <select
              id={`${id}-assistant`}
              value={assistantId ?? ''}
              onChange={(e) => setAssistantId(e.target.value ? Number(e.target.value) : null)}
            >
              <option value="">{t('chooseAssistant')}</option>
              {(assistants.data ?? []).map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name}
                </option>
              ))}
            </select>
          </div>
          <Button disabled={assistantId === null || test.isPending} onClick={() => run(assistantId ?? undefined)}>
            {t('test')}
          </Button>
        </div>
      ) : null}
      <div aria-live="polite">
        {test.isPending ? <Spinner label={t('testing')} /> : null}
        {failed ? (
          <div className="banner banner-error" role="alert">
            <p>
              <strong>{t('testFailed')}</strong>
            </p>
            <p dir="auto">{result ? result.message : localizedDetail(test.error)}</p>
          </div>
        ) : result ? (
          <p className="form-success" role="status">
            {t('testSuccess')}
          </p>
        ) : null}
        {result ? (
          <>
            <p className="small muted">{t('testResponse')}</p>
            <pre
              className="automation-json"
              dir="ltr"
              tabIndex={0}
              aria-label={t('testResponse')}
              data-testid="action-test-response"
            >
              {asJson(result)}
            </pre>
          </>
        ) : null}
      </div>
    </Modal>
  );
}
