import { useTranslation } from 'react-i18next';
import { type PasswordCheck, strengthOf } from '../password-rules';

export function PasswordStrength({ checks }: { checks: PasswordCheck[] }) {
  const { t } = useTranslation('auth');
  const { percent, level } = strengthOf(checks);
  const label = t('strength', { level: t(`strength${level}`) });
  return (
    <div className="strength">
      <div
        className={`strength-bar strength-${level.toLowerCase()}`}
        role="meter"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
      >
        <span style={{ inlineSize: `${percent}%` }} />
      </div>
      <p className="strength-label">{label}</p>
      <ul className="checklist">
        {checks.map((check) => (
          <li key={check.key} className={check.met ? 'met' : 'unmet'}>
            <span aria-hidden="true">{check.met ? '✓' : '○'}</span> {t(`check${check.key}`)}
            <span className="visually-hidden"> ({t(check.met ? 'met' : 'notMet')})</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
