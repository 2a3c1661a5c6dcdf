import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toastStore } from '@/lib/toast-store';
import { jsonResponse, sampleAssistant, stubApi as stubApiWith } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { IntegrationsPage } from './integrations-page';

const json = jsonResponse;
const assistant = sampleAssistant;
const whatsapp = {
  phone_number: '+972 50-000-0000',
  business_name: 'Crumb',
  is_active: true,
  webhook_url: 'https://kesher.test/api/v1/webhooks/whatsapp/1',
  webhook_verify_token: 'verify-abc',
  phone_number_id: '1055',
  business_account_id: null,
  access_token_masked: '********9xYz',
  connected_at: 1,
  status: 'active',
  status_reason: null,
};
const telegram = {
  is_active: true,
  bot_username: 'crumb_bot',
  bot_token_masked: '********AbCd',
  webhook_url: 'https://kesher.test/api/v1/webhooks/telegram/1',
  connected_at: 1,
  status: 'active',
  status_reason: null,
};

const stubApi = (routes: Parameters<typeof stubApiWith>[0]) =>
  stubApiWith(routes, () => json({ detail: 'Telegram integration not found' }, 404));

describe('IntegrationsPage', () => {
  beforeEach(() => localStorage.setItem('firebaseToken', 'a-long-enough-token'));
  afterEach(() => {
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  it('shows the connected and available channels of the chosen assistant, counts them, and searches', async () => {
    stubApi({
      'GET /assistants/': () => json([assistant(1, 'Shop helper'), assistant(2, 'Cafe helper')]),
      'GET /assistants/1/whatsapp': () => json(whatsapp),
      'GET /whatsapp/stats/1': () => json({ total_chats: 3, active_chats: 1, chats: [] }),
    });
    renderWithProviders(<IntegrationsPage />);
    expect(await screen.findByText('Connected: 1')).toBeInTheDocument();
    const connected = screen.getByRole('heading', { name: 'Connected Integrations' }).nextElementSibling as HTMLElement;
    expect(within(connected).getByRole('heading', { name: 'WhatsApp' })).toBeInTheDocument();
    expect(within(connected).getByText('Active')).toBeInTheDocument();
    fireEvent.change(screen.getByPlaceholderText('Search integrations'), { target: { value: 'tele' } });
    expect(screen.getByRole('heading', { name: 'Telegram' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Instagram' })).toBeNull();
  });

  it("shows a channel the plan no longer includes as paused, with the server's reason and the way to the plans", async () => {
    const reason =
      'Paused: your plan no longer includes Telegram, so the assistant does not answer there. Upgrade on the pricing page to resume.';
    stubApi({
      'GET /assistants/': () => json([assistant(1, 'Shop helper')]),
      'GET /assistants/1/telegram': () => json({ ...telegram, status: 'paused', status_reason: reason }),
    });
    renderWithProviders(<IntegrationsPage />);
    expect(await screen.findByText('Connected: 1')).toBeInTheDocument();
    const connected = screen.getByRole('heading', { name: 'Connected Integrations' }).nextElementSibling as HTMLElement;
    expect(within(connected).getByText('Paused')).toBeInTheDocument();
    expect(within(connected).queryByText('Active')).toBeNull();
    expect(within(connected).getByRole('status')).toHaveTextContent(reason);
    expect(within(connected).getByRole('link', { name: 'See plans' })).toHaveAttribute('href', '/pricing');
  });

  it('connects Telegram: the token is required, a refusal says why, and a success is remembered', async () => {
    let refuse = true;
    const calls = stubApi({
      'GET /assistants/': () => json([assistant(1, 'Shop helper')]),
      'POST /assistants/1/telegram/setup': () =>
        refuse
          ? json({ detail: 'Failed to setup Telegram integration: Telegram refused the bot token: Unauthorized' }, 400)
          : json({
              success: true,
              message: 'Telegram integration set up',
              bot_username: 'crumb_bot',
              is_active: true,
              integration: telegram,
            }),
    });
    renderWithProviders(<IntegrationsPage />);
    await screen.findByRole('option', { name: 'Shop helper' });
    fireEvent.click(screen.getByRole('button', { name: 'Connect Telegram' }));
    const dialog = screen.getByRole('dialog', { name: 'Connect Telegram' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Connect' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Please enter the Bot Token');
    fireEvent.change(within(dialog).getByLabelText(/Bot Token/), { target: { value: ' 123:abc ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Connect' }));
    expect(
      await within(dialog).findByText(
        'Failed to setup Telegram integration: Telegram refused the bot token: Unauthorized',
      ),
    ).toBeInTheDocument();
    refuse = false;
    fireEvent.click(within(dialog).getByRole('button', { name: 'Connect' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.filter((c) => c.call === 'POST /assistants/1/telegram/setup').at(-1)!.body).toEqual({
      bot_token: '123:abc',
    });
    expect(localStorage.getItem('telegram_bot_username_1')).toBe('crumb_bot');
  });

  it('configures a connected channel with its masked token, and disconnects only after a confirmation', async () => {
    const calls = stubApi({
      'GET /assistants/': () => json([assistant(1, 'Shop helper')]),
      'GET /assistants/1/telegram': () => json(telegram),
      'DELETE /assistants/1/telegram': () => json({ success: true, detail: 'Telegram integration disconnected' }),
    });
    renderWithProviders(<IntegrationsPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Configure Telegram' }));
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getByText('********AbCd')).toBeInTheDocument();
    expect(within(dialog).getByText('@crumb_bot')).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Disconnect' }));
    expect(within(dialog).getByText(/Are you sure you want to disconnect Telegram\?/)).toBeInTheDocument();
    expect(calls.some((c) => c.call.startsWith('DELETE'))).toBe(false);
    fireEvent.click(within(dialog).getAllByRole('button', { name: 'Disconnect' }).at(-1)!);
    await waitFor(() => expect(calls.some((c) => c.call === 'DELETE /assistants/1/telegram')).toBe(true));
    expect(await screen.findByText('Connected: 0')).toBeInTheDocument();
  });

  it('warns before a WhatsApp connection is ended that connecting again gives a new webhook address, and says so on the connect form', async () => {
    const calls = stubApi({
      'GET /assistants/': () => json([assistant(1, 'Shop helper')]),
      'GET /assistants/1/whatsapp': () => json(whatsapp),
      'GET /whatsapp/stats/1': () => json({ total_chats: 3, active_chats: 1, chats: [] }),
    });
    renderWithProviders(<IntegrationsPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Configure WhatsApp' }));
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).queryByText(/new webhook address/)).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Disconnect' }));
    expect(
      within(dialog).getByText(/Connecting again later gives this channel a new webhook address and verify token/),
    ).toBeInTheDocument();
    expect(calls.some((c) => c.call.startsWith('DELETE'))).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    fireEvent.click(within(dialog).getAllByRole('button', { name: 'Close' }).at(-1)!);
    fireEvent.click(screen.getByRole('button', { name: 'Connect Instagram' }));
    expect(
      within(screen.getByRole('dialog')).getByText(/Each connection gets its own webhook address and verify token/),
    ).toBeInTheDocument();
  });

  it('offers to create an assistant when there is none, and says Messenger is coming (in Hebrew too)', async () => {
    stubApi({ 'GET /assistants/': () => json([]) });
    renderWithProviders(<IntegrationsPage />, { language: 'he' });
    expect(await screen.findByRole('link', { name: 'יצירת עוזר' })).toHaveAttribute('href', '/create-assistant');
    fireEvent.click(screen.getByRole('button', { name: 'חיבור Messenger' }));
    expect(toastStore.snapshot().map((toast) => toast.message)).toContain('האינטגרציה עם Messenger תגיע בקרוב.');
    fireEvent.click(screen.getByRole('button', { name: 'חיבור Telegram' }));
    expect(toastStore.snapshot().map((toast) => toast.message)).toContain('נא לבחור עוזר קודם');
  });
});
