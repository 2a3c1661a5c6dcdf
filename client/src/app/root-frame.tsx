import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useNavigate } from 'react-router';
import { ToastArea } from '@/components/ui/toast-area';
import { onUnauthorized } from '@/lib/api-client';
import { paths } from '@/lib/paths';
import { notify } from '@/lib/toast-store';
import { OfflineIndicator } from './layout/offline-indicator';
import { UpdatePrompt } from './layout/update-prompt';

export const UNAUTHORIZED_REDIRECT_MS = 100;

/**
 * Wraps every route. Here the app reacts to a 401 the transport reported (spec §8): the user is
 * forgotten, told why, and sent to /login 100 ms later — unless already on /login or /.
 */
export function RootFrame() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  useEffect(
    () =>
      onUnauthorized(() => {
        queryClient.setQueryData(['me'], null);
        const here = window.location.pathname;
        if (here === paths.login || here === paths.home) return;
        notify.error(t('errors:unauthorized'));
        setTimeout(() => navigate(paths.login), UNAUTHORIZED_REDIRECT_MS);
      }),
    [navigate, queryClient, t],
  );
  return (
    <>
      <Outlet />
      <OfflineIndicator />
      <UpdatePrompt />
      <ToastArea />
    </>
  );
}
