import { useTranslation } from 'react-i18next';
import { ApiError, localizedDetail } from '@/lib/api-error';

/** A section still loading its figures. */
export function SectionLoading() {
  const { t } = useTranslation('analytics');
  return (
    <p className="muted analytics-loading" role="status">
      {t('loading')}
    </p>
  );
}

/** A section's failure: the spec's text (§8) and its Retry. */
export function SectionError({ message, onRetry }: { message: string; onRetry: () => void }) {
  const { t } = useTranslation('analytics');
  return (
    <div className="analytics-error" role="alert">
      <p>{message}</p>
      <button type="button" className="btn btn-secondary" onClick={onRetry}>
        {t('retry')}
      </button>
    </div>
  );
}

/**
 * The text of a failed call: "Invalid response format" when the answer was not the `{ status: 'success',
 * data }` envelope (the client's schema check), the login text on 401, else the section's own text.
 */
export function useFailureText() {
  const { t } = useTranslation('analytics');
  return (error: unknown, sectionKey: string): string => {
    if (error instanceof ApiError && error.code === 'unauthorized') return t('loginRequired');
    if (error instanceof ApiError && error.code === 'unexpected' && !error.detail) return t('invalidResponse');
    return t(sectionKey);
  };
}

/** The dashboard's text: "Failed to load analytics data: {detail}", the detail in the page's language. */
export function useDashboardFailureText() {
  const { t } = useTranslation('analytics');
  const failure = useFailureText();
  return (error: unknown): string => {
    if (error instanceof ApiError && (error.code === 'unauthorized' || (error.code === 'unexpected' && !error.detail)))
      return failure(error, 'noAnalytics');
    const detail =
      localizedDetail(error) ?? (error instanceof ApiError ? t(`errors:${error.code}`) : t('errors:unexpected'));
    return t('failedToLoad', { detail });
  };
}
