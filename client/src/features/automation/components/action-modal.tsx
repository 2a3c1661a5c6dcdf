import {
  ACTION_INPUT_TYPES,
  ACTION_METHODS,
  type ActionBodyInput,
  type ActionDto,
  INPUT_NAME,
} from '@kesher/contracts';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { TextAreaField, TextField } from '@/components/ui/field';
import { Modal } from '@/components/ui/modal';
import { notify } from '@/lib/toast-store';
import { actions } from '../api/actions';
import {
  cleanHeaders,
  isHttpUrl,
  takesBody,
  type TemplateProblem,
  templateProblem,
  urlSource,
} from '../automation-rules';
import { failureText } from '../failure-text';
import { InlinePrompt } from './inline-prompt';

type Input = ActionDto['api_inputs'][number];
/** Template examples stay left-to-right inside a Hebrew sentence (an isolate, so the braces do not flip). */
const ltr = (text: string) => `\u2066${text}\u2069`;
type Method = ActionDto['api_method'];

interface Props {
  /** null: create mode. */
  action: ActionDto | null;
  onClose: () => void;
}

/**
 * Spec §2 action modal: title*, description, the type toggle; for an API action method*, endpoint URL*,
 * headers as key/value rows, inputs (added through a prompt, new ones string and required; added or
 * removed only when creating) and the JSON body template (only when the method is not GET); for a
 * knowledge base the sources, added by URL when creating. Template problems are said as they are typed.
 */
export function ActionModal({ action, onClose }: Props) {
  const { t } = useTranslation('automation');
  const formId = useId();
  const creating = action === null;
  const [title, setTitle] = useState(action?.title ?? '');
  const [description, setDescription] = useState(action?.description ?? '');
  const [type, setType] = useState<ActionDto['type']>(action?.type ?? 'api');
  const [method, setMethod] = useState<Method>(action?.api_method ?? 'GET');
  const [endpoint, setEndpoint] = useState(action?.api_endpoint ?? '');
  const [endpointName, setEndpointName] = useState(action?.endpoint_name ?? '');
  const [headers, setHeaders] = useState(action?.api_headers.length ? action.api_headers : [{ key: '', value: '' }]);
  const [inputs, setInputs] = useState<Input[]>(action?.api_inputs ?? []);
  const [body, setBody] = useState(action?.api_body_template ?? '');
  const [sources, setSources] = useState(action?.kb_sources ?? []);
  const create = actions.useCreate();
  const update = actions.useUpdate();
  const busy = create.isPending || update.isPending;

  const problemText = (problem: TemplateProblem | null) =>
    problem === null
      ? null
      : problem.kind === 'unknown'
        ? t('unknownPlaceholders', { names: problem.names.join(', ') })
        : problem.kind === 'invalidJson'
          ? t('bodyInvalidJson')
          : t('templateMalformed', { example: ltr('{{name}}') });
  const setInput = (index: number, change: Partial<Input>) =>
    setInputs(inputs.map((input, i) => (i === index ? { ...input, ...change } : input)));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const payload: ActionBodyInput = {
      title,
      description,
      type,
      api_endpoint: endpoint,
      api_method: method,
      // §5: rows with an empty key or value are dropped; none left, no headers are sent.
      api_headers: cleanHeaders(headers),
      api_body_template: takesBody(method) ? body : '',
      api_inputs: inputs,
      endpoint_name: endpointName.trim() || null,
      kb_sources: sources,
    };
    if (action) {
      update.mutate(
        { id: action.id, body: payload },
        {
          onSuccess: () => (notify.success(t('actionUpdated')), onClose()),
          onError: (error) => notify.error(failureText(t('updateActionFailed'), error)),
        },
      );
    } else {
      create.mutate(payload, {
        onSuccess: () => (notify.success(t('actionCreated')), onClose()),
        onError: (error) => notify.error(failureText(t('createActionFailed'), error)),
      });
    }
  };

  return (
    <Modal
      title={action ? t('editAction') : t('createAction')}
      onClose={onClose}
      wide
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            {t('cancel')}
          </Button>
          <Button type="submit" form={formId} disabled={busy}>
            {busy ? t('saving') : action ? t('save') : t('createAction')}
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
          label={t('description')}
          rows={2}
          value={description}
          onChange={(e) => setDescription(e.target.value)}
          dir="auto"
        />
        <fieldset className="field automation-fieldset">
          <legend>{t('type')}</legend>
          <div className="automation-segmented">
            {(['api', 'knowledge_base'] as const).map((value) => (
              <label key={value} className={type === value ? 'chip chip-on' : 'chip'}>
                <input
                  type="radio"
                  name={`${formId}-type`}
                  className="visually-hidden"
                  checked={type === value}
                  onChange={() => setType(value)}
                />
                {t(`type_${value}`)}
              </label>
            ))}
          </div>
        </fieldset>

        {type === 'api' ? (
          <>
            <div className="automation-method-row">
              <div className="field">
                <label htmlFor={`${formId}-method`}>{`${t('method')} *`}</label>
                <select
                  id={`${formId}-method`}
                  aria-required="true"
                  value={method}
                  onChange={(e) => setMethod(e.target.value as Method)}
                >
                  {ACTION_METHODS.map((m) => (
                    <option key={m} value={m}>
                      {m}
                    </option>
                  ))}
                </select>
              </div>
              <TextField
                label={`${t('endpoint')} *`}
                aria-required="true"
                dir="ltr"
                inputMode="url"
                value={endpoint}
                placeholder={
                  endpointName.trim() ? '/orders/{{order_id}}' : 'https://api.example.com/orders/{{order_id}}'
                }
                hint={problemText(templateProblem(endpoint, inputs)) ?? t('endpointHint', { example: ltr('{{name}}') })}
                onChange={(e) => setEndpoint(e.target.value)}
              />
            </div>
            <TextField
              label={t('endpointNameField')}
              dir="ltr"
              value={endpointName}
              hint={t('endpointNameHint')}
              onChange={(e) => setEndpointName(e.target.value)}
            />

            <fieldset className="field automation-fieldset">
              <legend>{t('headers')}</legend>
              <ol className="automation-rows">
                {headers.map((header, index) => (
                  <li key={index} className="automation-row">
                    <input
                      aria-label={t('headerKeyN', { n: index + 1 })}
                      placeholder={t('headerKey')}
                      dir="ltr"
                      value={header.key}
                      onChange={(e) =>
                        setHeaders(headers.map((h, i) => (i === index ? { ...h, key: e.target.value } : h)))
                      }
                    />
                    <input
                      aria-label={t('headerValueN', { n: index + 1 })}
                      placeholder={t('headerValue')}
                      dir="ltr"
                      value={header.value}
                      onChange={(e) =>
                        setHeaders(headers.map((h, i) => (i === index ? { ...h, value: e.target.value } : h)))
                      }
                    />
                    <Button
                      variant="ghost"
                      aria-label={t('removeHeader', { n: index + 1 })}
                      onClick={() =>
                        setHeaders(
                          headers.length > 1 ? headers.filter((_, i) => i !== index) : [{ key: '', value: '' }],
                        )
                      }
                    >
                      ×
                    </Button>
                  </li>
                ))}
              </ol>
              <Button variant="secondary" onClick={() => setHeaders([...headers, { key: '', value: '' }])}>
                {t('addHeader')}
              </Button>
            </fieldset>

            <fieldset className="field automation-fieldset">
              <legend>{t('inputs')}</legend>
              {inputs.length === 0 ? <p className="muted small">{t('noInputs')}</p> : null}
              <ul className="automation-rows">
                {inputs.map((input, index) => (
                  <li key={input.name} className="automation-input-row">
                    <code dir="ltr">{input.name}</code>
                    <select
                      aria-label={t('inputType', { name: input.name })}
                      value={input.type}
                      onChange={(e) => setInput(index, { type: e.target.value as Input['type'] })}
                    >
                      {ACTION_INPUT_TYPES.map((it) => (
                        <option key={it} value={it}>
                          {t(`inputType_${it}`)}
                        </option>
                      ))}
                    </select>
                    <label className="checkbox-field">
                      <input
                        type="checkbox"
                        checked={input.required}
                        onChange={(e) => setInput(index, { required: e.target.checked })}
                      />
                      <span>{t('required')}</span>
                    </label>
                    <input
                      aria-label={t('inputDescription', { name: input.name })}
                      placeholder={t('description')}
                      dir="auto"
                      value={input.description}
                      onChange={(e) => setInput(index, { description: e.target.value })}
                    />
                    {creating ? (
                      <Button
                        variant="ghost"
                        aria-label={t('removeInput', { name: input.name })}
                        onClick={() => setInputs(inputs.filter((_, i) => i !== index))}
                      >
                        ×
                      </Button>
                    ) : null}
                  </li>
                ))}
              </ul>
              {creating ? (
                <InlinePrompt
                  label={t('inputNamePrompt')}
                  addLabel={t('addInput')}
                  onAdd={(name) => {
                    if (!INPUT_NAME.test(name)) return t('inputNameInvalid');
                    if (inputs.some((input) => input.name === name)) return t('inputExists');
                    // §3: a new input is a required string.
                    setInputs([...inputs, { name, type: 'string', required: true, description: '' }]);
                    return null;
                  }}
                />
              ) : (
                <p className="field-hint">{t('inputsFixed')}</p>
              )}
            </fieldset>

            {takesBody(method) ? (
              <TextAreaField
                label={t('bodyTemplate')}
                rows={5}
                dir="ltr"
                className="automation-code"
                value={body}
                placeholder={'{"order_id": "{{order_id}}"}'}
                hint={
                  problemText(templateProblem(body, inputs, true)) ??
                  t('bodyHint', { example: ltr('{"email": "{{email}}"}') })
                }
                onChange={(e) => setBody(e.target.value)}
              />
            ) : null}
          </>
        ) : (
          <fieldset className="field automation-fieldset">
            <legend>{t('sources')}</legend>
            {sources.length === 0 ? <p className="muted small">{t('noSources')}</p> : null}
            <ul className="automation-rows">
              {sources.map((source) => (
                <li key={source.url} className="automation-row">
                  <a href={source.url} target="_blank" rel="noopener noreferrer" dir="ltr" className="automation-url">
                    {source.name}
                  </a>
                  {creating ? (
                    <Button
                      variant="ghost"
                      aria-label={t('removeSource', { name: source.name })}
                      onClick={() => setSources(sources.filter((s) => s.url !== source.url))}
                    >
                      ×
                    </Button>
                  ) : null}
                </li>
              ))}
            </ul>
            {creating ? (
              <InlinePrompt
                label={t('sourceUrlPrompt')}
                addLabel={t('addSource')}
                inputMode="url"
                onAdd={(url) => {
                  if (!isHttpUrl(url)) return t('sourceUrlInvalid');
                  if (!sources.some((s) => s.url === url)) setSources([...sources, urlSource(url)]);
                  return null;
                }}
              />
            ) : (
              <p className="field-hint">{t('sourcesFixed')}</p>
            )}
          </fieldset>
        )}
      </form>
    </Modal>
  );
}
