import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { action, fakeAutomationApi, fill, json, toasts } from '../testing/fake-automation-api';
import { ActionsPage } from './actions-page';

afterEach(() => vi.unstubAllGlobals());
// Whole forms filled through the DOM: slower than the 5 s default on a loaded 2-core machine.
vi.setConfig({ testTimeout: 20_000 });

const kb = () =>
  action({
    id: 'act_kb',
    title: 'Help center',
    description: 'Searches the FAQ',
    type: 'knowledge_base',
    api_endpoint: '',
    api_inputs: [],
    kb_sources: [{ type: 'url', name: 'https://help.example.com/faq', url: 'https://help.example.com/faq' }],
  });
const post = () =>
  action({
    id: 'act_post',
    title: 'Create lead',
    description: 'Sends the lead to the CRM',
    api_method: 'POST',
    api_endpoint: 'https://crm.example.com/leads',
    api_inputs: [
      { name: 'email', type: 'email', required: true, description: '' },
      { name: 'seats', type: 'number', required: false, description: '' },
      { name: 'vip', type: 'boolean', required: true, description: '' },
    ],
    api_body_template: '{"email": "{{email}}", "seats": {{seats}}, "vip": {{vip}}}',
  });

describe('the actions page', () => {
  it('shows API cards with method, endpoint, inputs "name (type)*" and Test, and knowledge-base cards with their sources', async () => {
    fakeAutomationApi({ actions: [post(), kb()] });
    renderWithProviders(<ActionsPage />);
    const api = await screen.findByRole('article', { name: 'Create lead' });
    expect(within(api).getByText('Custom API')).toHaveClass('badge');
    expect(within(api).getByText('POST')).toBeInTheDocument();
    expect(within(api).getByText('https://crm.example.com/leads')).toBeInTheDocument();
    expect(within(api).getByText('email (email)*, seats (number), vip (boolean)*')).toBeInTheDocument();
    expect(within(api).getByRole('button', { name: 'Test' })).toBeInTheDocument();
    const base = screen.getByRole('article', { name: 'Help center' });
    expect(within(base).getByText('Knowledge Base')).toHaveClass('badge');
    expect(within(base).getByText('https://help.example.com/faq')).toBeInTheDocument();
    expect(within(base).queryByRole('button', { name: 'Test' })).toBeNull();
  });

  it('filters by type (All Types, Custom API, Knowledge Base) and searches the title or description', async () => {
    fakeAutomationApi({ actions: [post(), kb(), action()] });
    renderWithProviders(<ActionsPage />);
    await screen.findByRole('article', { name: 'Help center' });
    const type = screen.getByRole('combobox', { name: 'Type' });
    expect(
      within(type)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['All Types', 'Custom API', 'Knowledge Base']);
    await userEvent.selectOptions(type, 'knowledge_base');
    expect(screen.getAllByRole('article').map((a) => a.getAttribute('aria-label'))).toEqual(['Help center']);
    await userEvent.selectOptions(type, 'api');
    await fill(screen.getByRole('searchbox', { name: 'Search' }), 'crm');
    expect(screen.getAllByRole('article').map((a) => a.getAttribute('aria-label'))).toEqual(['Create lead']);
  });

  it('tests with the §7 sample inputs and shows "Test successful!" and the response as JSON', async () => {
    const api = fakeAutomationApi({ actions: [post()] });
    api.on((r) =>
      r.path === '/actions/act_post/test'
        ? json(200, {
            success: true,
            message: 'Test successful!',
            status_code: 201,
            duration_ms: 12,
            response: { lead_id: 'L-77' },
            request: { method: 'POST', url: 'https://crm.example.com/leads', headers: {}, body: '{}' },
          })
        : undefined,
    );
    renderWithProviders(<ActionsPage />);
    await userEvent.click(
      within(await screen.findByRole('article', { name: 'Create lead' })).getByRole('button', { name: 'Test' }),
    );
    const dialog = screen.getByRole('dialog', { name: 'Test: Create lead' });
    expect(await within(dialog).findByText('Test successful!')).toBeInTheDocument();
    expect(api.sent('POST', '/actions/act_post/test')).toEqual([
      { test_inputs: { email: 'test_value', seats: 123, vip: true } },
    ]);
    expect(JSON.parse(within(dialog).getByTestId('action-test-response').textContent!)).toMatchObject({
      status_code: 201,
      response: { lead_id: 'L-77' },
    });
  });

  it('says "Test failed. Please check your API configuration." with the reason, for a failed call and for a refused request', async () => {
    const api = fakeAutomationApi({ actions: [action(), post()] });
    api.on((r) =>
      r.path === '/actions/act_1/test'
        ? json(200, {
            success: false,
            message: 'The API answered with HTTP 503',
            status_code: 503,
            duration_ms: 8,
            response: 'down',
            request: null,
          })
        : r.path === '/actions/act_post/test'
          ? json(400, { detail: 'The address was refused: private address' })
          : undefined,
    );
    renderWithProviders(<ActionsPage />);
    await userEvent.click(
      within(await screen.findByRole('article', { name: 'Order status' })).getByRole('button', { name: 'Test' }),
    );
    let dialog = screen.getByRole('dialog', { name: 'Test: Order status' });
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Test failed. Please check your API configuration.');
    expect(alert).toHaveTextContent('The API answered with HTTP 503');
    expect(within(dialog).getByTestId('action-test-response')).toHaveTextContent('"status_code": 503');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    await userEvent.click(
      within(screen.getByRole('article', { name: 'Create lead' })).getByRole('button', { name: 'Test' }),
    );
    dialog = screen.getByRole('dialog', { name: 'Test: Create lead' });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Test failed. Please check your API configuration.The address was refused: private address',
    );
  });

  it('creates an API action: body only when not GET, headers with empty parts dropped, inputs through the prompt as required strings', async () => {
    const api = fakeAutomationApi();
    renderWithProviders(<ActionsPage />);
    expect(await screen.findByText('No actions yet')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Add Action' }));
    const dialog = screen.getByRole('dialog', { name: 'Create Action' });
    expect(within(dialog).getByRole('radio', { name: 'Custom API' })).toBeChecked();
    expect(within(dialog).getByLabelText('Method *')).toHaveValue('GET');
    expect(within(dialog).queryByLabelText('Body template (JSON)')).toBeNull();
    await fill(within(dialog).getByLabelText('Title *'), 'Create lead');
    await fill(within(dialog).getByLabelText('Endpoint URL *'), 'https://crm.example.com/leads/{{email}}');
    expect(within(dialog).getByText('No input is named: email')).toBeInTheDocument();

    await userEvent.click(within(dialog).getByRole('button', { name: 'Add input' }));
    await fill(within(dialog).getByLabelText('Name of the new input'), 'bad name');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add input' }));
    expect(within(dialog).getByText('Use letters, digits and _ only.')).toBeInTheDocument();
    await fill(within(dialog).getByLabelText('Name of the new input'), 'email');
    await userEvent.type(within(dialog).getByLabelText('Name of the new input'), '{Enter}');
    expect(within(dialog).getByLabelText('Type of email')).toHaveValue('string');
    expect(within(dialog).getByRole('checkbox', { name: 'required' })).toBeChecked();
    expect(within(dialog).queryByText('No input is named: email')).toBeNull();

    await userEvent.selectOptions(within(dialog).getByLabelText('Method *'), 'POST');
    const body = within(dialog).getByLabelText('Body template (JSON)');
    await fill(body, '{"email": "{{email}}",}');
    expect(within(dialog).getByText('The body template is not valid JSON.')).toBeInTheDocument();
    await fill(body, '{"email": "{{email}}"}');
    await fill(within(dialog).getByLabelText('Header 1 name'), 'X-Api-Key');
    await fill(within(dialog).getByLabelText('Header 1 value'), 'secret-1234');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add header' }));
    await fill(within(dialog).getByLabelText('Header 2 name'), 'X-Empty');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Action' }));

    expect(await screen.findByRole('article', { name: 'Create lead' })).toBeInTheDocument();
    expect(api.sent('POST', '/actions')).toEqual([
      {
        title: 'Create lead',
        description: '',
        type: 'api',
        api_endpoint: 'https://crm.example.com/leads/{{email}}',
        api_method: 'POST',
        api_headers: [{ key: 'X-Api-Key', value: 'secret-1234' }],
        api_body_template: '{"email": "{{email}}"}',
        api_inputs: [{ name: 'email', type: 'string', required: true, description: '' }],
        endpoint_name: null,
        kb_sources: [],
      },
    ]);
  });

  it('drops the body when the method goes back to GET, and sends no headers when none are filled', async () => {
    const api = fakeAutomationApi();
    renderWithProviders(<ActionsPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Add Action' }));
    const dialog = screen.getByRole('dialog');
    await fill(within(dialog).getByLabelText('Title *'), 'Ping');
    await fill(within(dialog).getByLabelText('Endpoint URL *'), 'https://status.example.com/ping');
    await userEvent.selectOptions(within(dialog).getByLabelText('Method *'), 'PATCH');
    await fill(within(dialog).getByLabelText('Body template (JSON)'), '{"a": 1}');
    await userEvent.selectOptions(within(dialog).getByLabelText('Method *'), 'GET');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Action' }));
    await waitFor(() => expect(api.sent('POST', '/actions')).toHaveLength(1));
    const [sent] = api.sent('POST', '/actions') as Record<string, unknown>[];
    expect(sent).toMatchObject({ api_method: 'GET', api_body_template: '' });
    expect(sent).not.toHaveProperty('api_headers');
  });

  it('creates a knowledge-base action with sources added by URL', async () => {
    const api = fakeAutomationApi();
    renderWithProviders(<ActionsPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Add Action' }));
    const dialog = screen.getByRole('dialog');
    await fill(within(dialog).getByLabelText('Title *'), 'Help center');
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Knowledge Base' }));
    expect(within(dialog).queryByLabelText('Endpoint URL *')).toBeNull();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add source' }));
    await fill(within(dialog).getByLabelText('URL of the source'), 'help.example.com');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add source' }));
    expect(
      within(dialog).getByText('Please enter a full address starting with http:// or https://'),
    ).toBeInTheDocument();
    await fill(within(dialog).getByLabelText('URL of the source'), 'https://help.example.com/faq');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add source' }));
    expect(within(dialog).getByRole('link', { name: 'https://help.example.com/faq' })).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Action' }));
    await waitFor(() => expect(api.sent('POST', '/actions')).toHaveLength(1));
    expect(api.sent('POST', '/actions')[0]).toMatchObject({
      type: 'knowledge_base',
      kb_sources: [{ type: 'url', name: 'https://help.example.com/faq', url: 'https://help.example.com/faq' }],
    });
  });

  it('edits without adding or removing inputs, and says the §8 texts with the server reason', async () => {
    const api = fakeAutomationApi({ actions: [post()] });
    api.on((r) =>
      r.method === 'PUT'
        ? json(422, {
            detail: [{ msg: 'Body template: unknown placeholder {{name}} — add an input named "name" or remove it' }],
          })
        : undefined,
    );
    renderWithProviders(<ActionsPage />);
    await userEvent.click(
      within(await screen.findByRole('article', { name: 'Create lead' })).getByRole('button', { name: 'Edit' }),
    );
    const dialog = screen.getByRole('dialog', { name: 'Edit Action' });
    expect(within(dialog).queryByRole('button', { name: 'Add input' })).toBeNull();
    expect(within(dialog).queryByRole('button', { name: 'Remove input email' })).toBeNull();
    expect(
      within(dialog).getByText('Inputs can be added or removed only when creating the action.'),
    ).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(async () =>
      expect(await toasts()).toContain(
        'Failed to update action. Please try again. Body template: unknown placeholder {{name}} — add an input named "name" or remove it',
      ),
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await userEvent.click(
      within(screen.getByRole('article', { name: 'Create lead' })).getByRole('button', { name: 'Delete' }),
    );
    expect(screen.getByText('Are you sure you want to delete this action?')).toBeInTheDocument();
  });

  it('speaks Hebrew', async () => {
    fakeAutomationApi({ actions: [kb()] });
    renderWithProviders(<ActionsPage />, { language: 'he' });
    const card = await screen.findByRole('article', { name: 'Help center' });
    expect(within(card).getByText('מאגר ידע')).toBeInTheDocument();
    expect(screen.getByRole('option', { name: 'כל הסוגים' })).toBeInTheDocument();
  });
});
