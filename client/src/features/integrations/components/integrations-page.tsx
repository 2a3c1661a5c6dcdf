import '../locales';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { useAssistants } from '@/features/assistants/api/get-assistants';
import { paths } from '@/lib/paths';
import { serverText } from '@/lib/server-texts';
import { notify } from '@/lib/toast-store';
import { type Channel, useInstagram, useTelegram, useWhatsApp } from '../api/integrations';
import { CHANNELS, type ChannelEntry } from '../channel-catalogue';
import { ChannelModal, type Connected } from './channel-modal';

/** Remembers the picked assistant across visits, so the page opens where the owner left it. */
const ASSISTANT_KEY = 'integrations_assistant_id';

function IntegrationCard({
  entry,
  connected,
  onOpen,
}: {
  entry: ChannelEntry;
  connected: Connected | null;
  onOpen: () => void;
}) {
  const { t, i18n } = useTranslation('integrations');
  const name = t(entry.id);
  // Paused: connected, but the owner's plan no longer includes the channel, so nobody is answered there.
  const paused = connected?.data.status === 'paused';
  return (
    <li className="card integration-card">
      <div className="integration-card-head">
        <h3>{name}</h3>
        {connected ? (
          <span className="integration-badges">
            <span className="badge badge-ready">{t('connected')}</span>
            {paused ? (
              <span className="badge badge-failed">{t('paused')}</span>
            ) : (
              <span className={`badge ${connected.data.is_active ? 'badge-ready' : 'badge-failed'}`}>
                {connected.data.is_active ? t('active') : t('inactive')}
              </span>
            )}
          </span>
        ) : entry.comingSoon ? (
          <span className="badge">{t('comingSoon')}</span>
        ) : null}
      </div>
      {paused && connected.data.status_reason ? (
        <p className="banner banner-error" role="status">
          {serverText(connected.data.status_reason, i18n.language as 'en' | 'he')}{' '}
          <Link to={paths.pricing}>{t('seePlans')}</Link>
        </p>
      ) : null}
      <p className="muted">{t(`${entry.id}Description`)}</p>
      <Button
        variant={connected ? 'secondary' : 'primary'}
        onClick={onOpen}
        aria-label={`${connected ? t('configure') : t('connect')} ${name}`}
      >
        {connected ? t('configure') : t('connect')}
      </Button>
    </li>
  );
}

/**
 * /integrations (spec part 2 §2): the assistant selector (or the way to create one), a search, the
 * Connected counter, and the Connected and Available grids; Connect opens the channel's modal, Configure
 * its details and Disconnect; Messenger and Discord say they are coming.
 */
export function IntegrationsPage() {
  const { t } = useTranslation('integrations');
  const assistants = useAssistants();
  const [assistantId, setAssistantId] = useState<number | null>(() => {
    const kept = Number(localStorage.getItem(ASSISTANT_KEY));
    return Number.isInteger(kept) && kept > 0 ? kept : null;
  });
  const [search, setSearch] = useState('');
  const [open, setOpen] = useState<Channel | null>(null);
  const list = assistants.data ?? [];

  // The kept choice must still be one of the owner's assistants; otherwise the first one is taken.
  useEffect(() => {
    if (!assistants.data) return;
    if (assistantId !== null && assistants.data.some((a) => a.id === assistantId)) return;
    setAssistantId(assistants.data[0]?.id ?? null);
  }, [assistants.data, assistantId]);

  const telegram = useTelegram(assistantId);
  const whatsapp = useWhatsApp(assistantId);
  const instagram = useInstagram(assistantId);
  const connections: Record<Channel, Connected | null> = {
    telegram: telegram.data ? { channel: 'telegram', data: telegram.data } : null,
    whatsapp: whatsapp.data ? { channel: 'whatsapp', data: whatsapp.data } : null,
    instagram: instagram.data ? { channel: 'instagram', data: instagram.data } : null,
  };
  const connectionOf = (entry: ChannelEntry) => (entry.comingSoon ? null : connections[entry.id as Channel]);
  const loadingConnections = assistantId !== null && (telegram.isPending || whatsapp.isPending || instagram.isPending);

  const term = search.trim().toLocaleLowerCase();
  const shown = useMemo(
    () =>
      CHANNELS.filter(
        (entry) =>
          !term ||
          t(entry.id).toLocaleLowerCase().includes(term) ||
          t(`${entry.id}Description`).toLocaleLowerCase().includes(term),
      ),
    [term, t],
  );
  const connectedEntries = shown.filter((entry) => connectionOf(entry));
  const availableEntries = shown.filter((entry) => !connectionOf(entry));
  const connectedCount = CHANNELS.filter((entry) => connectionOf(entry)).length;

  function openEntry(entry: ChannelEntry) {
    if (entry.comingSoon) return notify.info(t('comingSoonNotice', { name: t(entry.id) }));
    if (assistantId === null) return notify.error(t('selectAssistantFirst'));
    setOpen(entry.id as Channel);
  }

  const openEntryData = open ? CHANNELS.find((entry) => entry.id === open) : undefined;

  return (
    <section className="page integrations-page">
      <header className="page-head">
        <h1>{t('title')}</h1>
        <p className="muted">{t('subtitle')}</p>
      </header>
      <div className="integrations-toolbar">
        {assistants.isPending ? (
          <Spinner label={t('loadingAssistants')} />
        ) : assistants.isError ? (
          <p className="form-error" role="alert">
            {t('failedAssistants')}
          </p>
        ) : list.length === 0 ? (
          <p>
            {t('noAssistants')} <Link to={paths.createAssistant}>{t('createAssistant')}</Link>
          </p>
        ) : (
          <div className="field">
            <label htmlFor="integrations-assistant">{t('assistant')}</label>
            <select
              id="integrations-assistant"
              value={assistantId ?? ''}
              onChange={(event) => {
                const next = Number(event.currentTarget.value);
                setAssistantId(next);
                localStorage.setItem(ASSISTANT_KEY, String(next));
              }}
            >
              {list.map((assistant) => (
                <option key={assistant.id} value={assistant.id}>
                  {assistant.name}
                </option>
              ))}
            </select>
          </div>
        )}
        <div className="field">
          <label htmlFor="integrations-search" className="visually-hidden">
            {t('search')}
          </label>
          <input
            id="integrations-search"
            type="search"
            placeholder={t('search')}
            value={search}
            onChange={(event) => setSearch(event.currentTarget.value)}
            dir="auto"
          />
        </div>
        <span className="badge" aria-live="polite">
          {t('connectedCount', { count: connectedCount })}
        </span>
      </div>

      {loadingConnections ? <Spinner label={t('loadingAssistants')} /> : null}
      <h2>{t('connectedTitle')}</h2>
      {connectedEntries.length === 0 ? (
        <p className="muted">{term ? t('noMatch') : t('noneConnected')}</p>
      ) : (
        <ul className="integration-grid">
          {connectedEntries.map((entry) => (
            <IntegrationCard
              key={entry.id}
              entry={entry}
              connected={connectionOf(entry)}
              onOpen={() => openEntry(entry)}
            />
          ))}
        </ul>
      )}
      <h2>{t('availableTitle')}</h2>
      {availableEntries.length === 0 ? (
        <p className="muted">{t('noMatch')}</p>
      ) : (
        <ul className="integration-grid">
          {availableEntries.map((entry) => (
            <IntegrationCard key={entry.id} entry={entry} connected={null} onOpen={() => openEntry(entry)} />
          ))}
        </ul>
      )}
      {open && openEntryData && assistantId !== null ? (
        <ChannelModal
          entry={openEntryData as ChannelEntry & { id: Channel }}
          assistantId={assistantId}
          connected={connections[open]}
          onClose={() => setOpen(null)}
        />
      ) : null}
    </section>
  );
}
