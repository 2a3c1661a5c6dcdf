import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useGoogleSignIn } from '../api/google-sign-in';

interface GoogleIdentity {
  accounts: { id: { initialize(o: object): void; prompt(): void } };
}
declare global {
  interface Window {
    google?: GoogleIdentity;
  }
}

let scriptPromise: Promise<void> | null = null;
function loadGoogleIdentity(): Promise<void> {
  scriptPromise ??= new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = 'https://accounts.google.com/gsi/client';
    script.async = true;
    script.onload = () => resolve();
    script.onerror = () => reject(new Error('gsi'));
    document.head.append(script);
  });
  return scriptPromise;
}

/**
 * Google sign-in through Google Identity Services: Google returns an ID token, the server verifies it
 * and answers with a Kesher session. Rendered only when /auth/config names a client id.
 */
export function GoogleButton({
  clientId,
  mode,
  onSignedIn,
  onError,
}: {
  clientId: string;
  mode: 'signIn' | 'signUp';
  onSignedIn: () => void;
  onError: (message: string) => void;
}) {
  const { t } = useTranslation('auth');
  const signIn = useGoogleSignIn();
  const [busy, setBusy] = useState(false);
  const handlers = useRef({ onSignedIn, onError });
  handlers.current = { onSignedIn, onError };
  const fallback = mode === 'signIn' ? t('googleError') : t('googleRegisterError');

  useEffect(() => () => setBusy(false), []);

  const start = async () => {
    setBusy(true);
    try {
      await loadGoogleIdentity();
      window.google?.accounts.id.initialize({
        client_id: clientId,
        callback: ({ credential }: { credential: string }) =>
          signIn.mutate(credential, {
            onSuccess: () => handlers.current.onSignedIn(),
            onError: (error) =>
              handlers.current.onError(error.message && error.message !== 'unexpected' ? error.message : fallback),
            onSettled: () => setBusy(false),
          }),
      });
      window.google?.accounts.id.prompt();
    } catch {
      setBusy(false);
      handlers.current.onError(fallback);
    }
  };

  const label = mode === 'signIn' ? (busy ? t('signingInGoogle') : t('signInGoogle')) : t('signUpGoogle');
  return (
    <button type="button" className="btn btn-secondary btn-google" onClick={start} disabled={busy}>
      <span aria-hidden="true" className="g-mark">
        G
      </span>{' '}
      {label}
    </button>
  );
}
