import '../locales';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { driveAuthUrl, importDriveFiles } from '../api/drive';
import { driveFlow, driveToken } from '../drive-token';
import { DrivePicker } from './drive-picker';

/** What the owner chose in the create form's Google Drive section. */
export type DriveChoice =
  { kind: 'none' } | { kind: 'files'; accessToken: string; fileIds: string[] } | { kind: 'connectAfter' };

/** What the create flow's Drive step did: how many files failed, or where to send the browser to connect. */
export type DriveStepResult = { imported: number; failed: string[]; redirectTo?: undefined } | { redirectTo: string };

/**
 * The create flow's Google Drive step (spec part 1 §4: 55–65 % "during Google Drive import"), once the
 * assistant exists: the chosen files are imported into it; or, for an owner who has not connected Drive
 * yet, the consent screen is opened for the new assistant, whose return opens its files with the picker.
 */
export async function runDriveCreateStep(choice: DriveChoice, assistantId: number): Promise<DriveStepResult | null> {
  if (choice.kind === 'files' && choice.fileIds.length > 0) {
    const { imported, failed } = await importDriveFiles({
      assistantId,
      accessToken: choice.accessToken,
      fileIds: choice.fileIds,
    });
    return { imported: imported.length, failed: failed.map((f) => f.name ?? f.drive_file_id) };
  }
  if (choice.kind === 'connectAfter') {
    const started = await driveAuthUrl(assistantId);
    driveFlow.start(started.flow);
    return { redirectTo: started.auth_url };
  }
  return null;
}

/**
 * The create form's Google Drive section: with Drive connected, the picker in choose mode (the files are
 * imported once the assistant is saved); without, a choice to connect right after creating — connecting
 * needs the assistant the import goes to, which does not exist yet.
 */
export function DriveCreateChoice({ onChange }: { onChange: (choice: DriveChoice) => void }) {
  const { t } = useTranslation('drive');
  const [token] = useState(() => driveToken.get());
  return (
    <fieldset className="drive-create-choice">
      <legend>{t('createTitle')}</legend>
      {token ? (
        <>
          <p className="muted small">{t('createPick')}</p>
          <DrivePicker
            assistantId={0}
            onPick={(fileIds) =>
              onChange(fileIds.length ? { kind: 'files', accessToken: token, fileIds } : { kind: 'none' })
            }
          />
        </>
      ) : (
        <label className="checkbox">
          <input
            type="checkbox"
            onChange={(event) => onChange(event.currentTarget.checked ? { kind: 'connectAfter' } : { kind: 'none' })}
          />{' '}
          {t('createConnectAfter')}
        </label>
      )}
    </fieldset>
  );
}
