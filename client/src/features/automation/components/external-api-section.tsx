import '../locales';
import './automation.css';
import { automationLimits, type ExternalApiConfigDto, isMaskedSecret } from '@kesher/contracts';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { Spinner } from '@/components/ui/spinner';
import { localizedDetail } from '@/lib/api-error';
import { notify } from '@/lib/toast-store';
import {
  useDeleteExternalApiConfig,
  useExternalApiConfig,
  useSaveExternalApiConfig,
  useTestConnection,
} from '../api/external-api-config';
import { failureText } from '../failure-text';
import { ConfirmDelete } from './confirm-delete';

interface Row {
  /** Local key: rows are added and removed before anything is saved. */
  key: number;
  name: string;
  base_url: string;
  auth_header_name: string;
  /** As read: masked (`********1234`); left as is, the stored secret is kept. */
  auth_header_value: string;
  timeout_ms: number;
  /** Saved under this name: only saved endpoints can be probed. */
  saved: boolean;
}

let nextKey = 1;
const toRows = (config: ExternalApiConfigDto | null | undefined): Row[] =>
  (config?.endpoints ?? []).map((e) => ({
    key: nextKey++,
    name: e.name,
    base_url: e.base_url,
    auth_header_name: e.auth_header_name,
    auth_header_value: e.auth_header_value,
    timeout_ms: e.timeout_ms,
    saved: true,
  }));
const emptyRow = (): Row => ({
  key: nextKey++,
  name: '',
  base_url: '',
  auth_header_name: 'Authorization',
  auth_header_value: '',
  timeout_ms: automationLimits.actionTimeoutMs,
  saved: false,
});

/**
 * The assistant's external API configuration (part 1 §7, shapes ours): named endpoints — base URL, an
 * auth header whose secret is stored encrypted and read back masked, a timeout — that its API actions
 * call by name; Test connection probes a saved one through the same guards as actions.
 */
export function ExternalApiSection({ assistantId }: { assistantId: number }) {
  const { t } = useTranslation('automation');
  const config = useExternalApiConfig(assistantId);
  if (config.isPending) return <Spinner label={t('externalLoading')} />;
  return (
    <ExternalApiForm key={config.data?.updated_at ?? 'none'} assistantId={assistantId} config={config.data ?? null} />
  );
}

function ExternalApiForm({ assistantId, config }: { assistantId: number; config: ExternalApiConfigDto | null }) {
  const { t } = useTranslation('automation');
  const id = useId();
  const [rows, setRows] = useState<Row[]>(() => toRows(config));
  const [confirming, setConfirming] = useState(false);
  const save = useSaveExternalApiConfig();
  const remove = useDeleteExternalApiConfig();
  const set = (key: number, change: Partial<Row>) =>
    setRows(rows.map((row) => (row.key === key ? { ...row, ...change } : row)));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const endpoints = rows.map(({ name, base_url, auth_header_name, auth_header_value, timeout_ms }) => ({
      name,
      base_url,
      auth_header_name,
      auth_header_value,
      timeout_ms,
    }));
    save.mutate(
      { assistantId, body: { endpoints } },
      {
        onSuccess: () => notify.success(t('endpointsSaved')),
        onError: (error) => notify.error(failureText(t('endpointsSaveFailed'), error)),
      },
    );
  };

  return (
    <section className="card external-api" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('externalTitle')}</h2>
      <p className="muted small">{t('externalHint')}</p>
      <form onSubmit={submit} noValidate>
        {rows.length === 0 ? <p className="muted">{t('externalNone')}</p> : null}
        <ul className="external-api-list">
          {rows.map((row, index) => (
            <li key={row.key} className="external-api-endpoint" aria-label={row.name || `#${index + 1}`}>
              <TextField
                label={`${t('endpointName')} *`}
                aria-required="true"
                dir="ltr"
                value={row.name}
                onChange={(e) => set(row.key, { name: e.target.value, saved: false })}
              />
              <TextField
                label={`${t('baseUrl')} *`}
                aria-required="true"
                dir="ltr"
                inputMode="url"
                placeholder="https://api.example.com"
                value={row.base_url}
                onChange={(e) => set(row.key, { base_url: e.target.value })}
              />
              <TextField
                label={t('authHeader')}
                dir="ltr"
                value={row.auth_header_name}
                onChange={(e) => set(row.key, { auth_header_name: e.target.value })}
              />
              <TextField
                label={t('authValue')}
                type="password"
                autoComplete="off"
                dir="ltr"
                value={row.auth_header_value}
                hint={isMaskedSecret(row.auth_header_value) ? t('authValueKeep') : undefined}
                onChange={(e) => set(row.key, { auth_header_value: e.target.value })}
              />
              <TextField
                label={t('timeoutMs')}
                type="number"
                inputMode="numeric"
                min={automationLimits.minEndpointTimeoutMs}
                max={automationLimits.maxEndpointTimeoutMs}
                step={100}
                value={row.timeout_ms}
                onChange={(e) => set(row.key, { timeout_ms: Number(e.target.value) })}
              />
              <div className="external-api-endpoint-actions">
                {row.saved ? <ConnectionTest assistantId={assistantId} name={row.name} /> : null}
                <Button
                  variant="ghost"
                  className="automation-delete"
                  onClick={() => setRows(rows.filter((r) => r.key !== row.key))}
                >
                  {t('removeEndpoint', { name: row.name || `#${index + 1}` })}
                </Button>
              </div>
            </li>
          ))}
        </ul>
        <div className="banner-actions">
          <Button
            variant="secondary"
            disabled={rows.length >= automationLimits.externalEndpoints}
            onClick={() => setRows([...rows, emptyRow()])}
          >
            {t('addEndpoint')}
          </Button>
          <Button type="submit" disabled={save.isPending}>
            {save.isPending ? t('saving') : t('saveEndpoints')}
          </Button>
          {config && config.endpoints.length > 0 ? (
            <Button variant="ghost" className="automation-delete" onClick={() => setConfirming(true)}>
              {t('removeAll')}
            </Button>
          ) : null}
        </div>
      </form>
      {confirming ? (
        <ConfirmDelete
          question={t('confirmRemoveAll')}
          busy={remove.isPending}
          onClose={() => setConfirming(false)}
          onConfirm={() =>
            remove.mutate(assistantId, {
              onSuccess: () => (notify.success(t('endpointsRemoved')), setConfirming(false)),
              onError: (error) => (notify.error(failureText(t('endpointsRemoveFailed'), error)), setConfirming(false)),
            })
          }
        />
      ) : null}
    </section>
  );
}

function ConnectionTest({ assistantId, name }: { assistantId: number; name: string }) {
  const { t } = useTranslation('automation');
  const probe = useTestConnection();
  const result = probe.data;
  return (
    <>
      <Button variant="secondary" disabled={probe.isPending} onClick={() => probe.mutate({ assistantId, name })}>
        {probe.isPending ? t('testing') : t('testConnection')}
      </Button>
      <span role="status" className="small">
        {probe.isError ? (
          <span className="field-error">{t('connectionFailed', { detail: localizedDetail(probe.error) ?? '' })}</span>
        ) : result ? (
          result.success ? (
            <span className="form-success">
              {t('connectionOk', { status: result.status_code ?? '-', ms: Math.round(result.duration_ms) })}
            </span>
          ) : (
            <span className="field-error">{t('connectionFailed', { detail: result.message })}</span>
          )
        ) : null}
      </span>
    </>
  );
}
