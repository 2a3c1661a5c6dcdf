import type { AssistantDto } from '@kesher/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Modal } from '@/components/ui/modal';
import { useCopyToClipboard } from '@/lib/copy-to-clipboard';
import { errorMessage, localizedDetail } from '@/lib/api-error';
import { notify } from '@/lib/toast-store';
import { useGenerateShareToken } from '../api/generate-share-token';
import { useRevokeShareToken } from '../api/revoke-share-token';

/** The share URL the server gives may be relative; the owner needs one they can paste anywhere. */
const absolute = (url: string) => new URL(url, window.location.origin).toString();

/** Share dialog (spec §2, §4): idle → generating → URL shown; Copy shows 'Copied!' for 2 s. */
export function ShareDialog({ assistant, onClose }: { assistant: AssistantDto; onClose: () => void }) {
  const { t } = useTranslation('assistants');
  const generate = useGenerateShareToken();
  const revoke = useRevokeShareToken();
  const [url, setUrl] = useState<string | null>(null);
  const { copied, copy } = useCopyToClipboard();

  return (
    <Modal title={t('shareTitle', { name: assistant.name })} onClose={onClose}>
      <p>{t('shareIntro')}</p>
      {url ? (
        <div className="share-url">
          <label htmlFor="share-url">{t('shareUrl')}</label>
          <div className="input-row">
            <input id="share-url" readOnly value={url} dir="ltr" onFocus={(e) => e.target.select()} />
            <Button onClick={() => copy(url)} aria-live="polite">
              {copied ? t('copied') : t('copy')}
            </Button>
          </div>
          <Button
            variant="ghost"
            disabled={revoke.isPending}
            onClick={() =>
              revoke.mutate(assistant.id, {
                onSuccess: () => {
                  setUrl(null);
                  notify.info(t('revoked'));
                },
                onError: (error) => notify.error(errorMessage(error, t)),
              })
            }
          >
            {t('revoke')}
          </Button>
        </div>
      ) : (
        <Button
          disabled={generate.isPending}
          onClick={() =>
            generate.mutate(assistant.id, {
              onSuccess: (share) => setUrl(absolute(share.share_url)),
              onError: (error) => notify.error(`${t('errorGeneratingShareUrl')}: ${localizedDetail(error) ?? errorMessage(error, t)}`),
            })
          }
        >
          {generate.isPending ? t('generating') : t('generateShare')}
        </Button>
      )}
    </Modal>
  );
}
