import '../locales';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { ApiError, errorMessage, localizedDetail } from '@/lib/api-error';
import { notify } from '@/lib/toast-store';
import { driveAuthUrl, refreshDriveToken, revokeDrive, useDriveFiles, useImportDriveFiles } from '../api/drive';
import { driveFlow, driveToken } from '../drive-token';

interface Props {
  assistantId: number;
  /** Where the browser goes for the consent screen (tests replace it). */
  navigate?: (url: string) => void;
  /**
   * Choose mode (the create-assistant form, before the assistant exists): the picked files are reported
   * here instead of imported, and the create flow imports them once the assistant is saved.
   */
  onPick?: (fileIds: string[]) => void;
}

/** Google's refusal of the token (the API's 403 that asks for a reconnect) or Drive being down: the stored token is no good. */
const tokenUnusable = (error: unknown) =>
  error instanceof ApiError && (error.status === 403 || (error.status !== null && error.status >= 500));

/**
 * The Google Drive picker (spec part 1 §2, §4): a connect prompt, then search, the owner's files 50 at a
 * time with checkboxes in single or multi select mode, Import with its overlay, and Sign Out. A token
 * Google refuses while listing is first renewed from the server's grant; failing that it is cleared and
 * the owner is asked to connect again.
 */
export function DrivePicker({ assistantId, navigate = (url) => window.location.assign(url), onPick }: Props) {
  const { t, i18n } = useTranslation('drive');
  const [token, setToken] = useState<string | null>(() => driveToken.get());
  const [search, setSearch] = useState('');
  const [query, setQuery] = useState('');
  const [multi, setMulti] = useState(true);
  const [picked, setPicked] = useState<string[]>([]);
  const [connecting, setConnecting] = useState(false);
  const [renewed, setRenewed] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const files = useDriveFiles(token, query);
  const importing = useImportDriveFiles();

  // The search waits for the owner to pause typing: one Drive call per search, not per key.
  useEffect(() => {
    const timer = setTimeout(() => setQuery(search.trim()), 300);
    return () => clearTimeout(timer);
  }, [search]);

  useEffect(() => {
    if (!files.isError || !tokenUnusable(files.error)) return;
    if (!renewed) {
      setRenewed(true);
      refreshDriveToken()
        .then(({ access_token }) => {
          driveToken.set(access_token);
          setToken(access_token);
        })
        .catch(() => forget(t('sessionExpired')));
      return;
    }
    forget(t('sessionExpired'));
  }, [files.isError, files.error]);

  function forget(message: string | null) {
    driveToken.clear();
    setToken(null);
    setPicked([]);
    onPick?.([]);
    setProblem(message);
  }

  async function connect() {
    setConnecting(true);
    setProblem(null);
    try {
      const started = await driveAuthUrl(assistantId);
      driveFlow.start(started.flow);
      navigate(started.auth_url);
    } catch (error) {
      setConnecting(false);
      // The server's own words where it gave them (e.g. which plan Drive needs), else the catalogue's.
      setProblem(
        `${t('connectFailed')}: ${localizedDetail(error, i18n.language as 'en' | 'he') ?? errorMessage(error, t)}`,
      );
    }
  }

  async function signOut() {
    const current = token;
    forget(null);
    await revokeDrive(current).catch(() => undefined);
    notify.info(t('signedOut'));
  }

  function toggle(id: string) {
    setProblem(null);
    const next = picked.includes(id) ? picked.filter((other) => other !== id) : multi ? [...picked, id] : [id];
    setPicked(next);
    onPick?.(next);
  }

  function runImport() {
    if (!token) return setProblem(t('signInFirst'));
    if (picked.length === 0) return setProblem(t('selectFiles'));
    importing.mutate(
      { assistantId, accessToken: token, fileIds: picked },
      {
        onSuccess: ({ imported, failed }) => {
          setPicked([]);
          if (imported.length > 0) notify.success(t('imported', { count: imported.length }));
          if (failed.length > 0 && imported.length > 0)
            notify.warning(t('partial', { names: failed.map((f) => f.name ?? f.drive_file_id).join(', ') }));
          if (failed.length > 0)
            notify.error(
              `${t('failed', { count: failed.length })}: ${failed.map((f) => `${f.name ?? f.drive_file_id} — ${f.error}`).join('; ')}`,
            );
        },
        onError: (error) => {
          if (tokenUnusable(error)) return forget(t('sessionExpired'));
          notify.error(
            `${t('importFailed')} ${localizedDetail(error, i18n.language as 'en' | 'he') ?? errorMessage(error, t)}`,
          );
        },
      },
    );
  }

  if (!token) {
    return (
      <div className="drive-picker">
        <p className="muted">{t('connectPrompt')}</p>
        {problem ? (
          <p className="form-error" role="alert">
            {problem}
          </p>
        ) : null}
        <Button onClick={() => void connect()} disabled={connecting}>
          {connecting ? t('connecting') : t('connect')}
        </Button>
      </div>
    );
  }

  const dateFormat = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' });
  const list = files.data?.pages.flatMap((page) => page.files) ?? [];
  return (
    <div className="drive-picker" aria-busy={importing.isPending}>
      <div className="drive-picker-bar">
        <input
          type="search"
          aria-label={t('search')}
          placeholder={t('search')}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          dir="auto"
        />
        <fieldset className="drive-mode">
          <legend className="visually-hidden">{t('selectMode')}</legend>
          <label>
            <input
              type="radio"
              name={`drive-mode-${assistantId}`}
              checked={!multi}
              onChange={() => {
                setMulti(false);
                setPicked(picked.slice(0, 1));
                onPick?.(picked.slice(0, 1));
              }}
            />{' '}
            {t('modeSingle')}
          </label>
          <label>
            <input type="radio" name={`drive-mode-${assistantId}`} checked={multi} onChange={() => setMulti(true)} />{' '}
            {t('modeMulti')}
          </label>
        </fieldset>
      </div>
      {files.isPending ? (
        <Spinner label={t('loading')} />
      ) : files.isError && !tokenUnusable(files.error) ? (
        <p className="form-error" role="alert">{`${t('loadFailed')}: ${errorMessage(files.error, t)}`}</p>
      ) : list.length === 0 ? (
        <p className="muted">{t('empty')}</p>
      ) : (
        <ul className="drive-file-list">
          {list.map((file) => (
            <li key={file.id}>
              <label>
                <input
                  type={multi ? 'checkbox' : 'radio'}
                  name={multi ? undefined : `drive-pick-${assistantId}`}
                  checked={picked.includes(file.id)}
                  onChange={() => toggle(file.id)}
                />
                <span dir="auto">{file.name}</span>
                {file.modifiedTime ? (
                  <span className="muted small">
                    {t('modified', { date: dateFormat.format(new Date(file.modifiedTime)) })}
                  </span>
                ) : null}
              </label>
            </li>
          ))}
        </ul>
      )}
      {files.hasNextPage ? (
        <Button variant="ghost" onClick={() => void files.fetchNextPage()} disabled={files.isFetchingNextPage}>
          {t('loadMore')}
        </Button>
      ) : null}
      {problem ? (
        <p className="form-error" role="alert">
          {problem}
        </p>
      ) : null}
      <div className="drive-picker-actions">
        <span className="muted small" aria-live="polite">
          {t('selected', { count: picked.length })}
        </span>
        {onPick ? null : (
          <Button onClick={runImport} disabled={importing.isPending}>
            {importing.isPending ? t('importing') : t('import')}
          </Button>
        )}
        <Button variant="secondary" onClick={() => void signOut()} disabled={importing.isPending}>
          {t('signOut')}
        </Button>
      </div>
      {importing.isPending ? (
        <div className="drive-importing" role="status">
          <Spinner label={t('importing')} />
        </div>
      ) : null}
    </div>
  );
}
