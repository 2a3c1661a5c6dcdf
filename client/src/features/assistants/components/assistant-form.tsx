import { type FormEvent, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { TextAreaField, TextField } from '@/components/ui/field';
import { paths } from '@/lib/paths';
import {
  type AssistantFormValues,
  canSubmit,
  commonPromptIds,
  type FormErrors,
  salesPromptIds,
  validateAssistant,
  withCrawler,
} from '../assistant-form-rules';
import { PromptToggles } from './prompt-toggles';
import { WordCounter } from './word-counter';

interface Props {
  mode: 'create' | 'edit';
  initial: AssistantFormValues;
  busy: boolean;
  onSubmit: (values: AssistantFormValues, file: File | null) => void;
  /** The create flow's progress indicator, shown in place of the buttons while saving. */
  progress?: ReactNode;
  /** Lets the file input be composed in from the files feature. */
  fileInput?: (onFile: (file: File | null) => void) => ReactNode;
  /** The create form's Google Drive section (the drive feature, composed in by the route). */
  driveInput?: ReactNode;
}

/** The three sections of the create and edit pages (spec §2), with the §5 validation. */
export function AssistantForm({ mode, initial, busy, onSubmit, progress, fileInput, driveInput }: Props) {
  const { t } = useTranslation('assistants');
  const [values, setValues] = useState(initial);
  const [file, setFile] = useState<File | null>(null);
  const [errors, setErrors] = useState<FormErrors>({});
  const set = <K extends keyof AssistantFormValues>(key: K, value: AssistantFormValues[K]) => {
    const next = { ...values, [key]: value };
    setValues(next);
    // A shown error follows the edit: gone (or changed) once the value no longer has that problem, so
    // "Please enter a valid website URL" does not stay under a field that was just cleared. New errors
    // still wait for the submit.
    setErrors((shown) => {
      if (Object.keys(shown).length === 0) return shown;
      const found = validateAssistant(next);
      return Object.fromEntries(
        Object.keys(shown).flatMap((k) => (found[k as keyof FormErrors] ? [[k, found[k as keyof FormErrors]]] : [])),
      ) as FormErrors;
    });
  };
  const err = (key: keyof FormErrors) => (errors[key] ? t(errors[key]!) : null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = validateAssistant(values);
    setErrors(found);
    if (Object.keys(found).length === 0) onSubmit(values, file);
  };

  return (
    <form onSubmit={submit} className="assistant-form" noValidate>
      <fieldset className="card">
        <legend>{t('basicInfo')}</legend>
        <TextField
          label={`${t('name')} *`}
          name="name"
          required
          value={values.name}
          onChange={(e) => set('name', e.target.value)}
          placeholder={t('namePlaceholder')}
          error={err('name')}
          maxLength={200}
        />
        <TextAreaField
          label={`${t('description')} *`}
          name="description"
          required
          rows={3}
          value={values.description}
          onChange={(e) => set('description', e.target.value)}
          placeholder={t('descriptionPlaceholder')}
          error={err('description')}
          hint={<WordCounter text={values.description} />}
        />
      </fieldset>

      <fieldset className="card">
        <legend>{t('knowledgeSection')}</legend>
        <TextAreaField
          label={`${t('instructions')} *`}
          name="instructions"
          required
          rows={6}
          value={values.instructions}
          onChange={(e) => set('instructions', e.target.value)}
          placeholder={t('instructionsPlaceholder')}
          error={err('instructions')}
          hint={<WordCounter text={values.instructions} />}
        />
        <PromptToggles
          ids={commonPromptIds}
          prefix="common"
          text={values.instructions}
          onChange={(text) => set('instructions', text)}
          label={t('commonPrompts')}
        />
        {mode === 'create' && fileInput ? fileInput(setFile) : null}
        {mode === 'create' ? driveInput : null}
      </fieldset>

      <fieldset className="card">
        <legend>{t('advanced')}</legend>
        <TextField
          label={t('websiteUrl')}
          name="website_url"
          type="url"
          inputMode="url"
          value={values.websiteUrl}
          onChange={(e) => set('websiteUrl', e.target.value)}
          placeholder="https://example.com"
          error={err('websiteUrl')}
          hint={t('websiteHint')}
        />
        <div className="switch-field">
          <input
            id="crawler"
            type="checkbox"
            role="switch"
            checked={values.crawlerEnabled}
            onChange={(e) => setValues((v) => withCrawler(v, e.target.checked))}
          />
          <label htmlFor="crawler">{mode === 'edit' ? t('enableCrawler') : t('crawlerEnable')}</label>
        </div>
        <div className="switch-field" title={values.crawlerEnabled ? undefined : t('salesNeedsCrawler')}>
          <input
            id="sales"
            type="checkbox"
            role="switch"
            checked={values.salesMode}
            disabled={!values.crawlerEnabled}
            onChange={(e) => set('salesMode', e.target.checked)}
            aria-describedby="sales-hint"
          />
          <label htmlFor="sales">{t('salesMode')}</label>
          <p id="sales-hint" className="field-hint">
            {values.crawlerEnabled ? t('salesModeHint') : t('salesNeedsCrawler')}
          </p>
        </div>
        {values.salesMode ? (
          <>
            <TextAreaField
              label={t('salesPrompt')}
              name="sales_prompt"
              rows={5}
              value={values.salesPrompt}
              onChange={(e) => set('salesPrompt', e.target.value)}
              error={err('salesPrompt')}
              hint={<WordCounter text={values.salesPrompt} />}
            />
            <PromptToggles
              ids={salesPromptIds}
              prefix="sales"
              text={values.salesPrompt}
              onChange={(text) => set('salesPrompt', text)}
              label={t('salesPrompts')}
            />
          </>
        ) : null}
      </fieldset>

      {errors.form ? (
        <p className="form-error" role="alert">
          {t(errors.form)}
        </p>
      ) : null}
      {progress ?? (
        <div className="form-actions">
          <Button type="submit" disabled={busy || !canSubmit(values)}>
            {busy ? t('saving') : mode === 'create' ? t('submitCreate') : t('submitEdit')}
          </Button>
          <Link className="btn btn-ghost" to={paths.dashboard}>
            {t('cancel')}
          </Link>
        </div>
      )}
    </form>
  );
}
