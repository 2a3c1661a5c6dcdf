import type { UseQueryResult } from '@tanstack/react-query';
import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';

interface Props<T> {
  query: UseQueryResult<T[]>;
  /** The filtered items to show; the empty texts depend on whether the list itself is empty. */
  shown: T[];
  emptyTitle: string;
  emptyHint: string;
  children: (items: T[]) => ReactNode;
}

/**
 * Spec §4: lists go loading → loaded. A load failure is only logged (§8: no alert); the page says the
 * list could not be read and offers Retry instead of pretending there is nothing.
 */
export function ListState<T>({ query, shown, emptyTitle, emptyHint, children }: Props<T>) {
  const { t } = useTranslation('automation');
  useEffect(() => {
    if (query.error) console.error('automation list failed to load', query.error);
  }, [query.error]);
  if (query.isPending) return <Spinner label={t('loading')} />;
  if (query.isError && !query.data) {
    return (
      <div className="card empty-state">
        <p>{t('loadFailed')}</p>
        <Button variant="secondary" onClick={() => void query.refetch()}>
          {t('retry')}
        </Button>
      </div>
    );
  }
  if (query.data.length === 0) {
    return (
      <div className="card empty-state">
        <h2>{emptyTitle}</h2>
        <p className="muted">{emptyHint}</p>
      </div>
    );
  }
  if (shown.length === 0) return <p className="muted empty-state">{t('noMatches')}</p>;
  return <>{children(shown)}</>;
}
