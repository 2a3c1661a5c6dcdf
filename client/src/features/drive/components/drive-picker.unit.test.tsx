import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, stubApi } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { DRIVE_TOKEN_KEY } from '../drive-token';
import { DrivePicker } from './drive-picker';

const json = jsonResponse;

const file = (id: string, name: string) => ({
  id,
  name,
  mimeType: 'application/vnd.google-apps.document',
  size: null,
  modifiedTime: '2026-11-01T10:00:00.000Z',
});

describe('DrivePicker', () => {
  beforeEach(() => localStorage.setItem('firebaseToken', 'a-long-enough-token'));
  afterEach(() => {
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  it('asks to connect when no token is stored, sends the browser to the consent screen, and shows why it could not', async () => {
    const navigate = vi.fn();
    let refuse = true;
    stubApi({
      'POST /google-drive/auth/url': () =>
        refuse
          ? json({ detail: 'Google Drive needs a paid plan. Upgrade on the pricing page to use it.' }, 403)
          : json({ auth_url: 'https://accounts.example/consent?x=1', flow: 'flow-1' }),
    });
    renderWithProviders(<DrivePicker assistantId={7} navigate={navigate} />);
    fireEvent.click(screen.getByRole('button', { name: 'Connect Google Drive' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to connect to Google Drive: Google Drive needs a paid plan',
    );
    refuse = false;
    fireEvent.click(screen.getByRole('button', { name: 'Connect Google Drive' }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('https://accounts.example/consent?x=1'));
    // The flow this tab started, for the return page to recognise.
    expect(sessionStorage.getItem('googleDriveFlow')).toBe('flow-1');
  });

  it('lists the files 50 at a time, imports the picked ones and says how many came in and which failed', async () => {
    localStorage.setItem(DRIVE_TOKEN_KEY, 'ya29.token');
    const calls = stubApi({
      'POST /google-drive/files/list': (body) =>
        body.page_token
          ? json({ files: [file('c', 'Third')], next_page_token: null })
          : json({ files: [file('a', 'Opening hours'), file('b', 'Prices')], next_page_token: 'page-2' }),
      'POST /google-drive/files/import': () =>
        json({
          imported: [
            {
              drive_file_id: 'a',
              name: 'Opening hours',
              file: {
                id: 'file-1',
                filename: 'Opening hours.txt',
                bytes: 10,
                created_at: 1,
                status: 'ready',
                status_reason: null,
                source_url: null,
              },
            },
          ],
          failed: [{ drive_file_id: 'c', name: 'Third', error: 'This file type cannot be imported.' }],
        }),
    });
    renderWithProviders(<DrivePicker assistantId={7} />);
    expect(await screen.findByText('Opening hours')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Import' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please select files to import');

    fireEvent.click(screen.getByRole('button', { name: 'Show more' }));
    expect(await screen.findByText('Third')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('checkbox', { name: /Opening hours/ }));
    fireEvent.click(screen.getByRole('checkbox', { name: /Third/ }));
    expect(screen.getByText('2 files selected')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Import' }));
    await waitFor(() => expect(calls.some((c) => c.call === 'POST /google-drive/files/import')).toBe(true));
    const sent = calls.find((c) => c.call === 'POST /google-drive/files/import')!.body;
    expect(sent).toEqual({ assistant_id: 7, access_token: 'ya29.token', files: [{ id: 'a' }, { id: 'c' }] });
    expect(calls.find((c) => c.call === 'POST /google-drive/files/list')!.body).toMatchObject({ page_size: 50 });
  });

  it('keeps one file in single select mode', async () => {
    localStorage.setItem(DRIVE_TOKEN_KEY, 'ya29.token');
    stubApi({
      'POST /google-drive/files/list': () =>
        json({ files: [file('a', 'Opening hours'), file('b', 'Prices')], next_page_token: null }),
    });
    renderWithProviders(<DrivePicker assistantId={7} />);
    await screen.findByText('Prices');
    fireEvent.click(screen.getByRole('radio', { name: 'One file' }));
    fireEvent.click(screen.getByRole('radio', { name: /Opening hours/ }));
    fireEvent.click(screen.getByRole('radio', { name: /Prices/ }));
    expect(screen.getByText('1 file selected')).toBeInTheDocument();
  });

  it('renews a token Google refused from the server’s grant, and when that fails too clears it and asks to connect again', async () => {
    localStorage.setItem(DRIVE_TOKEN_KEY, 'ya29.old');
    let refreshWorks = true;
    stubApi({
      'POST /google-drive/files/list': (body) =>
        body.access_token === 'ya29.fresh'
          ? json({ files: [file('a', 'Opening hours')], next_page_token: null })
          : json({ detail: 'Your Google Drive session has expired. Please connect again.' }, 403),
      'POST /google-drive/auth/refresh': () =>
        refreshWorks
          ? json({ access_token: 'ya29.fresh', expires_in: 3599 })
          : json({ detail: 'Please sign in to Google Drive first' }, 403),
    });
    const { unmount } = renderWithProviders(<DrivePicker assistantId={7} />);
    expect(await screen.findByText('Opening hours')).toBeInTheDocument();
    expect(localStorage.getItem(DRIVE_TOKEN_KEY)).toBe('ya29.fresh');
    unmount();

    localStorage.setItem(DRIVE_TOKEN_KEY, 'ya29.old');
    refreshWorks = false;
    renderWithProviders(<DrivePicker assistantId={7} />);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Your Google Drive session has expired. Please connect again.',
    );
    expect(screen.getByRole('button', { name: 'Connect Google Drive' })).toBeInTheDocument();
    expect(localStorage.getItem(DRIVE_TOKEN_KEY)).toBeNull();
  });

  it('signs out: the token is forgotten here and revoked at Google, in Hebrew too', async () => {
    localStorage.setItem(DRIVE_TOKEN_KEY, 'ya29.token');
    const calls = stubApi({
      'POST /google-drive/files/list': () => json({ files: [], next_page_token: null }),
      'POST /google-drive/auth/revoke': () => json({ detail: 'Signed out of Google Drive' }),
    });
    renderWithProviders(<DrivePicker assistantId={7} />, { language: 'he' });
    expect(await screen.findByText('אין כאן קבצים לייבוא.')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'התנתקות' }));
    await waitFor(() =>
      expect(calls.find((c) => c.call === 'POST /google-drive/auth/revoke')?.body).toEqual({
        access_token: 'ya29.token',
      }),
    );
    expect(localStorage.getItem(DRIVE_TOKEN_KEY)).toBeNull();
    expect(screen.getByRole('button', { name: 'חיבור Google Drive' })).toBeInTheDocument();
  });
});
