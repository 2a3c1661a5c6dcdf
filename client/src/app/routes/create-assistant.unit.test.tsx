import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { driveToken } from '@/features/drive/drive-token';
import { tokenStorage } from '@/lib/token-storage';
import { renderRoutes } from '@/test/render';
import { Component as CreateAssistant } from './create-assistant';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

async function fillTheForm() {
  fireEvent.change(await screen.findByLabelText('Assistant name *'), { target: { value: 'Crumb' } });
  fireEvent.change(screen.getByLabelText('Description *'), { target: { value: 'A bakery' } });
  fireEvent.change(screen.getByLabelText('Instructions *'), { target: { value: 'Be kind' } });
}

describe('/create-assistant with Google Drive (spec part 1: Drive import in the create flow)', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    driveToken.clear();
    tokenStorage.clear();
  });

  it('with Drive connected, the files picked in the form are imported into the new assistant', async () => {
    tokenStorage.set('a-session-token-for-tests', 'owner-1');
    driveToken.set('drive-access-token-for-tests');
    const calls: { url: string; body: unknown }[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        const body = init?.body ? JSON.parse(String(init.body)) : null;
        calls.push({ url, body });
        if (url === '/api/v1/google-drive/files/list')
          return json({
            files: [
              { id: 'drv1', name: 'Prices.xlsx', mimeType: 'application/vnd.ms-excel', size: 10, modifiedTime: null },
            ],
            next_page_token: null,
          });
        if (url === '/api/v1/assistants/')
          return json({ assistant_id: 12, openai_assistant_id: 'asst_abcdefghijklmnopqrstuvwx', failed_functions: [] });
        if (url === '/api/v1/google-drive/files/import') return json({ imported: [], failed: [] });
        return json({ detail: 'Not found' }, 404);
      }),
    );
    renderRoutes(
      [
        { path: '/create-assistant', element: <CreateAssistant /> },
        { path: '/dashboard', element: <p>dashboard</p> },
      ],
      { path: '/create-assistant' },
    );
    await fillTheForm();
    expect(screen.getByRole('group', { name: 'Import from Google Drive' })).toBeInTheDocument();
    fireEvent.click(await screen.findByRole('checkbox', { name: /Prices\.xlsx/ }));
    // Choose mode: the form's Create button does the import, not a button of the picker's own.
    expect(screen.queryByRole('button', { name: 'Import' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Create Assistant' }));
    expect(await screen.findByText('dashboard')).toBeInTheDocument();
    expect(calls.find((c) => c.url === '/api/v1/google-drive/files/import')?.body).toEqual({
      assistant_id: 12,
      access_token: 'drive-access-token-for-tests',
      files: [{ id: 'drv1' }],
    });
  });

  it('without Drive connected, "connect right after creating" opens Google\'s consent for the new assistant', async () => {
    tokenStorage.set('a-session-token-for-tests', 'owner-1');
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        if (url === '/api/v1/assistants/')
          return json({ assistant_id: 13, openai_assistant_id: 'asst_abcdefghijklmnopqrstuvwx', failed_functions: [] });
        if (url === '/api/v1/google-drive/auth/url')
          return json({ auth_url: 'https://accounts.google.test/o/oauth2/auth?state=s', flow: 'flow-1' });
        return json({ detail: 'Not found' }, 404);
      }),
    );
    renderRoutes(
      [
        { path: '/create-assistant', element: <CreateAssistant /> },
        { path: '/dashboard', element: <p>dashboard</p> },
      ],
      { path: '/create-assistant' },
    );
    await fillTheForm();
    fireEvent.click(
      screen.getByRole('checkbox', {
        name: 'Connect Google Drive right after creating the assistant, to import files from it',
      }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Create Assistant' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://accounts.google.test/o/oauth2/auth?state=s'));
    expect(sessionStorage.getItem('googleDriveFlow')).toBe('flow-1');
  });
});
