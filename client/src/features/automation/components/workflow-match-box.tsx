import type { WorkflowMatchResponse } from '@kesher/contracts';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { localizedDetail } from '@/lib/api-error';
import { useMatchWorkflow, useWorkflowOverlaps } from '../api/match-workflow';

const percent = (score: number) => `${Math.round(score * 100)}%`;

/**
 * Beyond the spec: "which workflow would fire?" — a message typed as a visitor would, answered with the
 * workflow that fires, its score against the threshold and the phrases that matched; plus the training
 * phrases two workflows compete for, so the owner can tell why the wrong one fires.
 */
export function WorkflowMatchBox() {
  const { t } = useTranslation('automation');
  const id = useId();
  const [message, setMessage] = useState('');
  const [result, setResult] = useState<WorkflowMatchResponse | null>(null);
  const match = useMatchWorkflow();
  const overlaps = useWorkflowOverlaps();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!message.trim()) return;
    match.mutate(message, { onSuccess: setResult, onError: () => setResult(null) });
  };
  const runnersUp = result
    ? result.candidates.filter((c) => c.workflow_id !== result.fired?.workflow_id).slice(0, 2)
    : [];

  return (
    <section className="card automation-match" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('matchTitle')}</h2>
      <p className="muted small">{t('matchHint')}</p>
      <form className="automation-match-form" onSubmit={submit}>
        <label htmlFor={`${id}-message`} className="visually-hidden">
          {t('matchMessage')}
        </label>
        <input
          id={`${id}-message`}
          value={message}
          dir="auto"
          placeholder={t('matchMessage')}
          onChange={(e) => setMessage(e.target.value)}
        />
        <Button type="submit" variant="secondary" disabled={match.isPending || !message.trim()}>
          {match.isPending ? t('matching') : t('matchButton')}
        </Button>
      </form>
      <div aria-live="polite">
        {match.isError ? (
          <p className="form-error" role="alert">
            {[t('matchFailed'), localizedDetail(match.error)].filter(Boolean).join(' ')}
          </p>
        ) : null}
        {result ? (
          result.fired ? (
            <div className="automation-match-result">
              <p>
                <strong dir="auto">{t('matchFired', { title: result.fired.title })}</strong>{' '}
                <span className="badge badge-ready">
                  {t('matchScore', { score: percent(result.fired.score), threshold: percent(result.threshold) })}
                </span>
              </p>
              {result.fired.matched_on === 'trigger' ? <p className="small">{t('matchTrigger')}</p> : null}
              {result.fired.matched_phrases.length > 0 ? (
                <>
                  <p className="small muted">{t('matchedPhrases')}</p>
                  <ul className="automation-chips">
                    {result.fired.matched_phrases.map((phrase) => (
                      <li key={phrase} className="chip" dir="auto">
                        {phrase}
                      </li>
                    ))}
                  </ul>
                </>
              ) : null}
            </div>
          ) : (
            <p className="muted">{t('matchNone')}</p>
          )
        ) : null}
        {runnersUp.length > 0 ? (
          <p className="small muted">
            {t('matchRunnersUp')}: {runnersUp.map((c) => `${c.title} (${percent(c.score)})`).join(', ')}
          </p>
        ) : null}
      </div>
      {overlaps.data && (overlaps.data.overlaps.length > 0 || !overlaps.data.complete) ? (
        <div className="automation-overlaps" role="note">
          <h3>{t('overlapTitle')}</h3>
          {overlaps.data.overlaps.length > 0 ? (
            <ul>
              {overlaps.data.overlaps.slice(0, 5).map((o) => (
                <li key={`${o.workflow_id}-${o.other_workflow_id}-${o.phrase}`} dir="auto">
                  {t('overlapWarning', { a: o.workflow_title, b: o.other_workflow_title, phrases: `"${o.phrase}"` })}
                </li>
              ))}
            </ul>
          ) : null}
          {/* The server bounds the report's work (one owner's thousands of phrases must not stall others). */}
          {!overlaps.data.complete ? (
            <p className="small muted">
              {overlaps.data.checked_phrases !== undefined && overlaps.data.total_phrases !== undefined
                ? t('overlapPartialCounted', {
                    checked: overlaps.data.checked_phrases,
                    total: overlaps.data.total_phrases,
                  })
                : t('overlapPartial')}
            </p>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
