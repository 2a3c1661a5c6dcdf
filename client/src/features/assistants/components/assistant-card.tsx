import { Icon } from '@/components/ui/icon';
import type { AssistantDto } from '@kesher/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/lib/paths';

export type CardAction = 'history' | 'files' | 'crawler' | 'share' | 'delete';

/** One assistant on the dashboard with every button of spec §2. */
export function AssistantCard({
  assistant,
  onAction,
}: {
  assistant: AssistantDto;
  onAction: (action: CardAction) => void;
}) {
  const { t } = useTranslation('assistants');
  const headingId = `assistant-${assistant.id}-name`;
  return (
    <article className="card assistant-card" aria-labelledby={headingId}>
      <header className="assistant-card-head">
        <h2 id={headingId} dir="auto">
          {assistant.name}
        </h2>
        <span className="badge badge-ready">
          <span className="dot" aria-hidden="true" /> {t('active')}
        </span>
        <button
          type="button"
          className="icon-btn danger"
          onClick={() => onAction('delete')}
          aria-label={t('deleteAssistant', { name: assistant.name })}
        >
          <Icon name="trash" />
        </button>
      </header>
      <p className="clamp-3" dir="auto">
        {assistant.description || t('noDescription')}
      </p>
      <div className="card-actions" role="group" aria-label={t('actions', { name: assistant.name })}>
        <Link className="btn btn-primary" to={paths.chat(assistant.id)}>
          {t('startChat')}
        </Link>
        <button type="button" className="btn btn-secondary" onClick={() => onAction('history')}>
          {t('chatHistory')}
        </button>
        <button type="button" className="btn btn-secondary" onClick={() => onAction('files')}>
          {t('manageFiles')}
        </button>
        <button type="button" className="btn btn-secondary" onClick={() => onAction('crawler')}>
          {t('crawlerSettings')}
        </button>
        <button type="button" className="btn btn-secondary" onClick={() => onAction('share')}>
          {t('share')}
        </button>
        {assistant.telegram_integration ? (
          <a
            className="btn btn-secondary"
            href={`https://t.me/${assistant.telegram_integration.bot_username}`}
            target="_blank"
            rel="noreferrer"
          >
            {t('telegram')}
          </a>
        ) : null}
        <Link className="btn btn-secondary" to={paths.editAssistant(assistant.id)}>
          {t('edit')}
        </Link>
        <Link className="btn btn-secondary" to={paths.widgetPreview(assistant.id)}>
          {t('previewWidget')}
        </Link>
      </div>
    </article>
  );
}
