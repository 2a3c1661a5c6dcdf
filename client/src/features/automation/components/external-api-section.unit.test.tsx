import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { fill, json, toasts } from '../testing/fake-automation-api';
import { ExternalApiSection } from './external-api-section';

afterEach(() => vi.unstubAllGlobals());
// Whole forms filled through the DOM: slower than the 5 s default on a loaded 2-core machine.
vi.setConfig({ testTimeout: 20_000 });

const saved = {
  assistant_id: 7,
  endpoints: [
    {
      name: 'crm',
      base_url: 'https://crm.example.com',
      auth_header_name: 'Authorization',
      auth_header_value: '********9f3a',
      has_auth: true,
      timeout_ms: 5000,
    },
  ],
  updated_at: '2026-11-23T10:00:00Z',
};

function serve(config: unknown, answers: { save?: (body: unknown) => Response; probe?: () => Response } = {}) {
  const requests: { method: string; url: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      const body = typeof init.body === 'string' ? JSON.parse(init.body) : null;
      requests.push({ method, url, body });
      if (url === '/api/v1/external-api/assistants/7/config' && method === 'GET')
        return config ? json(200, config) : json(404, { detail: 'This assistant has no external API configuration.' });
      if (url === '/api/v1/external-api/assistants/7/config' && method === 'POST')
        return answers.save
          ? answers.save(body)
          : json(200, {
              ...saved,
              endpoints: body.endpoints.map((e: object) => ({ has_auth: true, ...e })),
              updated_at: '2026-11-23T11:00:00Z',
            });
      if (url === '/api/v1/external-api/assistants/7/config' && method === 'DELETE')
        return json(200, { success: true, message: 'Removed' });
      if (url.startsWith('/api/v1/external-api/assistants/7/test-connection'))
        return answers.probe ? answers.probe() : json(404, { detail: 'Not Found' });
      return json(404, { detail: 'Not Found' });
    }),
  );
  return requests;
}

describe('the external API endpoints on the edit-assistant page', () => {
  it('starts empty when the assistant has none, and saves a new endpoint', async () => {
    const requests = serve(null);
    renderWithProviders(<ExternalApiSection assistantId={7} />);
    expect(await screen.findByText('No endpoints yet.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Add endpoint' }));
    await fill(screen.getByLabelText('Name *'), 'crm');
    await fill(screen.getByLabelText('Base URL *'), 'https://crm.example.com');
    await fill(screen.getByLabelText('Auth header value'), 'Bearer s3cret');
    expect(screen.getByLabelText('Auth header value')).toHaveAttribute('type', 'password');
    await userEvent.click(screen.getByRole('button', { name: 'Save endpoints' }));
    await waitFor(async () => expect(await toasts()).toContain('Endpoints saved.'));
    expect(requests.find((r) => r.method === 'POST')?.body).toEqual({
      endpoints: [
        {
          name: 'crm',
          base_url: 'https://crm.example.com',
          auth_header_name: 'Authorization',
          auth_header_value: 'Bearer s3cret',
          timeout_ms: 10000,
        },
      ],
    });
    // Saved: it can be probed now.
    expect(await screen.findByRole('button', { name: 'Test connection' })).toBeInTheDocument();
  });

  it('shows the secret masked, sends the mask back to keep it, and probes a saved endpoint', async () => {
    const requests = serve(saved, {
      probe: () =>
        json(200, {
          endpoint_name: 'crm',
          success: true,
          message: 'Test successful!',
          status_code: 200,
          duration_ms: 41.6,
          response: {},
          request: null,
        }),
    });
    renderWithProviders(<ExternalApiSection assistantId={7} />);
    const secret = await screen.findByLabelText('Auth header value');
    expect(secret).toHaveValue('********9f3a');
    expect(screen.getByText('Leave empty to keep the saved secret')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    expect(await screen.findByText('Connected: HTTP 200 in 42 ms')).toBeInTheDocument();
    expect(requests.some((r) => r.url === '/api/v1/external-api/assistants/7/test-connection?endpoint_name=crm')).toBe(
      true,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Save endpoints' }));
    await waitFor(() =>
      expect(requests.find((r) => r.method === 'POST')?.body).toMatchObject({
        endpoints: [{ name: 'crm', auth_header_value: '********9f3a' }],
      }),
    );
  });

  it('says why a probe or a save failed, and removes every endpoint after a confirmation', async () => {
    const requests = serve(saved, {
      probe: () =>
        json(200, {
          endpoint_name: 'crm',
          success: false,
          message: 'The address was refused: private address',
          status_code: null,
          duration_ms: 1,
          response: null,
          request: null,
        }),
      save: () => json(422, { detail: [{ msg: 'The endpoint must be an http:// or https:// address' }] }),
    });
    renderWithProviders(<ExternalApiSection assistantId={7} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Test connection' }));
    expect(await screen.findByText('Connection failed: The address was refused: private address')).toBeInTheDocument();
    await fill(screen.getByLabelText('Base URL *'), 'ftp://crm.example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Save endpoints' }));
    await waitFor(async () =>
      expect(await toasts()).toContain(
        'Failed to save the endpoints. Please try again. The endpoint must be an http:// or https:// address',
      ),
    );

    await userEvent.click(screen.getByRole('button', { name: 'Remove all endpoints' }));
    const confirm = screen.getByRole('dialog', { name: 'Please confirm' });
    expect(within(confirm).getByText('Remove every external API endpoint of this assistant?')).toBeInTheDocument();
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('No endpoints yet.')).toBeInTheDocument();
    expect(requests.some((r) => r.method === 'DELETE')).toBe(true);
  });
});
