import type { AssistantDto } from '@kesher/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Modal } from '@/components/ui/modal';
import { errorMessage, localizedDetail } from '@/lib/api-error';
import { useCopyToClipboard } from '@/lib/copy-to-clipboard';
import { paths } from '@/lib/paths';
import { notify } from '@/lib/toast-store';
import { useGenerateShareToken } from '../api/generate-share-token';
import { useRevokeShareToken } from '../api/revoke-share-token';
import { useRotateShareToken } from '../api/rotate-share-token';

/** The share URL the server gives may be relative; the owner needs one they can paste anywhere. */
const absolute = (url: string) => new URL(url, window.location.origin).toString();

/**
 * Share dialog (spec §2, §4): idle → generating → URL shown; Copy shows 'Copied!' for 2 s. An assistant
 * that is already shared shows its link at once: customers and website widgets use it, so nothing here
 * replaces it silently. Making a new link and stopping sharing are their own buttons, each confirmed
 * after saying what stops working (the link and every website widget).
 */
export function ShareDialog({ assistant, onClose }: { assistant: AssistantDto; onClose: () => void }) {
  const { t } = useTranslation('assistants');
  const generate = useGenerateShareToken();
  const rotate = useRotateShareToken();
  const revoke = useRevokeShareToken();
  const [url, setUrl] = useState<string | null>(
    assistant.share_token ? absolute(paths.sharedChat(assistant.share_token)) : null,
  );
  const [confirmingRotate, setConfirmingRotate] = useState(false);
  // Stopping breaks the link and every widget that uses it, as a new link does: confirmed the same way.
  const [confirmingRevoke, setConfirmingRevoke] = useState(false);
  const { copied, copy } = useCopyToClipboard();
  const failure = (key: string) => (error: unknown) =>
    notify.error(`${t(key)}: ${localizedDetail(error) ?? errorMessage(error, t)}`);

  return (
    <>
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
            <div className="share-actions">
              <Button variant="secondary" disabled={rotate.isPending} onClick={() => setConfirmingRotate(true)}>
                {rotate.isPending ? t('rotating') : t('rotate')}
              </Button>
              <Button variant="ghost" disabled={revoke.isPending} onClick={() => setConfirmingRevoke(true)}>
                {revoke.isPending ? t('revoking') : t('revoke')}
              </Button>
            </div>
          </div>
        ) : (
          <Button
            disabled={generate.isPending}
            onClick={() =>
              generate.mutate(assistant.id, {
                onSuccess: (share) => setUrl(absolute(share.share_url)),
                onError: failure('errorGeneratingShareUrl'),
              })
            }
          >
            {generate.isPending ? t('generating') : t('generateShare')}
          </Button>
        )}
      </Modal>

      {/* A sibling, not a child: Escape in the confirmation must not close the share dialog too. */}
      {confirmingRotate ? (
        <Modal
          title={t('rotateTitle')}
          onClose={() => setConfirmingRotate(false)}
          footer={
            <>
              <Button variant="secondary" onClick={() => setConfirmingRotate(false)}>
                {t('cancel')}
              </Button>
              <Button
                variant="danger"
                disabled={rotate.isPending}
                onClick={() => {
                  setConfirmingRotate(false);
                  rotate.mutate(assistant.id, {
                    onSuccess: (share) => {
                      setUrl(absolute(share.share_url));
                      notify.success(t('rotated'));
                    },
                    onError: failure('errorRotatingShareUrl'),
                  });
                }}
              >
                {t('rotateConfirm')}
              </Button>
            </>
          }
        >
          <p>{t('rotateText')}</p>
        </Modal>
      ) : null}
      {confirmingRevoke ? (
        <Modal
          title={t('revokeTitle')}
          onClose={() => setConfirmingRevoke(false)}
          footer={
            <>
              <Button variant="secondary" onClick={() => setConfirmingRevoke(false)}>
                {t('cancel')}
              </Button>
              <Button
                variant="danger"
                disabled={revoke.isPending}
                onClick={() => {
                  setConfirmingRevoke(false);
                  revoke.mutate(assistant.id, {
                    onSuccess: () => {
                      setUrl(null);
                      notify.info(t('revoked'));
                    },
                    onError: (error) => notify.error(errorMessage(error, t)),
                  });
                }}
              >
                {t('revokeConfirm')}
              </Button>
            </>
          }
        >
          <p>{t('revokeText')}</p>
        </Modal>
      ) : null}
    </>
  );
}
