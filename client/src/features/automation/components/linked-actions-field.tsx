import type { ActionDto } from '@kesher/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/lib/paths';

interface Props {
  actions: readonly ActionDto[] | undefined;
  value: readonly string[];
  onChange: (ids: string[]) => void;
}

/** Spec §2: a checklist of the owner's actions to link, or a link to /actions when there are none. */
export function LinkedActionsField({ actions, value, onChange }: Props) {
  const { t } = useTranslation('automation');
  const toggle = (id: string, on: boolean) => onChange(on ? [...value, id] : value.filter((v) => v !== id));
  return (
    <fieldset className="field automation-fieldset">
      <legend>{t('linkedActions')}</legend>
      {actions === undefined ? (
        <p className="muted">{t('loading')}</p>
      ) : actions.length === 0 ? (
        <p className="field-hint">
          {t('noActionsYet')} <Link to={paths.actions}>{t('createActionsLink')}</Link>
        </p>
      ) : (
        <ul className="automation-checklist">
          {actions.map((action) => (
            <li key={action.id}>
              <label className="checkbox-field">
                <input
                  type="checkbox"
                  checked={value.includes(action.id)}
                  onChange={(e) => toggle(action.id, e.target.checked)}
                />
                <span dir="auto">{action.title}</span>
                <span className="badge">{t(`type_${action.type}`)}</span>
              </label>
            </li>
          ))}
        </ul>
      )}
    </fieldset>
  );
}
