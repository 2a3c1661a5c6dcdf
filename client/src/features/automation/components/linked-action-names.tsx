import type { ActionDto } from '@kesher/contracts';
import { useTranslation } from 'react-i18next';
import { linkedActionNames } from '../automation-rules';

/** A card's linked actions, by name (an action deleted since simply drops out). */
export function LinkedActionNames({
  linked,
  actions,
}: {
  linked: readonly string[];
  actions: readonly ActionDto[] | undefined;
}) {
  const { t } = useTranslation('automation');
  const names = linkedActionNames(linked, actions ?? []);
  if (names.length === 0) return null;
  return (
    <div className="automation-linked">
      <span className="muted small">{t('linkedActions')}:</span>
      <ul className="automation-chips">
        {names.map((name) => (
          <li key={name} className="badge" dir="auto">
            {name}
          </li>
        ))}
      </ul>
    </div>
  );
}
