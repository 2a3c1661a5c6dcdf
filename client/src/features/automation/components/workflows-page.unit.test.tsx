import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { action, fakeAutomationApi, fill, json, toasts, workflow, workflowStats } from '../testing/fake-automation-api';
import { WorkflowsPage } from './workflows-page';

afterEach(() => vi.unstubAllGlobals());
// Whole forms filled through the DOM: slower than the 5 s default on a loaded 2-core machine.
vi.setConfig({ testTimeout: 20_000 });

describe('the workflows page', () => {
  it('loads, then shows each card with its trigger, at most 3 phrases and its linked action names', async () => {
    fakeAutomationApi({
      workflows: [
        workflow({ linked_actions: ['act_1', 'act_gone'] }),
        workflow({
          id: 'wf_2',
          title: 'Refund',
          trigger_condition: 'Wants money back',
          training_phrases: ['refund please'],
        }),
      ],
      actions: [action()],
    });
    renderWithProviders(<WorkflowsPage />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading...');
    const card = await screen.findByRole('article', { name: 'Book a table' });
    expect(screen.getByRole('heading', { name: 'AI Workflows', level: 1 })).toBeInTheDocument();
    expect(within(card).getByText('The customer wants to book a table')).toBeInTheDocument();
    const phrases = within(card)
      .getAllByRole('listitem')
      .filter((li) => li.textContent?.startsWith('“'));
    expect(phrases.map((li) => li.textContent)).toEqual([
      '“book a table”',
      '“reserve a table for two”',
      '“table tonight”',
    ]);
    expect(within(card).getByText('+2 more')).toBeInTheDocument();
    expect(await within(card).findByText('Order status')).toHaveClass('badge');
    expect(within(screen.getByRole('article', { name: 'Refund' })).queryByText(/more/)).toBeNull();
  });

  it('filters by title or trigger condition', async () => {
    fakeAutomationApi({
      workflows: [workflow(), workflow({ id: 'wf_2', title: 'Refund', trigger_condition: 'Wants money back' })],
    });
    renderWithProviders(<WorkflowsPage />);
    await screen.findByRole('article', { name: 'Book a table' });
    const search = screen.getByRole('searchbox', { name: 'Search' });
    await fill(search, 'MONEY');
    expect(screen.queryByRole('article', { name: 'Book a table' })).toBeNull();
    expect(screen.getByRole('article', { name: 'Refund' })).toBeInTheDocument();
    await userEvent.clear(search);
    await fill(search, 'nothing like this');
    expect(screen.getByText('Nothing matches your search.')).toBeInTheDocument();
  });

  it('logs a load failure (no alert, §8) and offers Retry instead of the empty state', async () => {
    const api = fakeAutomationApi({ workflows: [workflow()] });
    let failing = true;
    api.on((r) =>
      failing && r.method === 'GET' && r.path === '/workflows'
        ? json(500, { detail: 'Internal Server Error' })
        : undefined,
    );
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    renderWithProviders(<WorkflowsPage />);
    expect(await screen.findByText('Could not load the list. Please try again.')).toBeInTheDocument();
    expect(screen.queryByText('No workflows yet')).toBeNull();
    expect(logged).toHaveBeenCalled();
    expect(await toasts()).toEqual([]);
    failing = false;
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('article', { name: 'Book a table' })).toBeInTheDocument();
  });

  it('says "No workflows yet" when there are none', async () => {
    fakeAutomationApi();
    renderWithProviders(<WorkflowsPage />);
    expect(await screen.findByText('No workflows yet')).toBeInTheDocument();
  });

  it('creates a workflow: required marks, phrases added and removed, empty ones dropped, the actions link when there are none', async () => {
    const api = fakeAutomationApi();
    renderWithProviders(<WorkflowsPage />);
    await screen.findByText('No workflows yet');
    await userEvent.click(screen.getByRole('button', { name: 'Add Workflow' }));
    const dialog = screen.getByRole('dialog', { name: 'Create Workflow' });
    expect(within(dialog).getByLabelText('Title *')).toHaveAttribute('aria-required', 'true');
    expect(within(dialog).getByLabelText('Trigger condition *')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Instructions *')).toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: 'Create actions on the Actions page' })).toHaveAttribute(
      'href',
      '/actions',
    );

    await fill(within(dialog).getByLabelText('Title *'), 'Book a table');
    await fill(within(dialog).getByLabelText('Trigger condition *'), 'Wants a table');
    await fill(within(dialog).getByLabelText('Training phrase 1'), 'book a table');
    await userEvent.type(within(dialog).getByLabelText('Training phrase 1'), '{Enter}');
    await fill(within(dialog).getByLabelText('Training phrase 2'), 'wrong one');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add phrase' }));
    await fill(within(dialog).getByLabelText('Training phrase 3'), 'reserve for two');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add phrase' })); // left empty
    expect(within(dialog).getByText('3 of 5 recommended phrases')).toHaveClass('counter-warn');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove phrase 2' }));
    expect(within(dialog).getByLabelText('Training phrase 2')).toHaveValue('reserve for two');
    await fill(within(dialog).getByLabelText('Instructions *'), 'Ask for the date.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Workflow' }));

    expect(await screen.findByRole('article', { name: 'Book a table' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(api.sent('POST', '/workflows')).toEqual([
      {
        title: 'Book a table',
        trigger_condition: 'Wants a table',
        training_phrases: ['book a table', 'reserve for two'],
        instructions: 'Ask for the date.',
        linked_actions: [],
      },
    ]);
    expect(await toasts()).toContain('Workflow created.');
  });

  it('edits a workflow with the actions checklist and sends the whole workflow', async () => {
    const api = fakeAutomationApi({
      workflows: [workflow()],
      actions: [action(), action({ id: 'act_2', title: 'Docs', type: 'knowledge_base' })],
    });
    renderWithProviders(<WorkflowsPage />);
    const card = await screen.findByRole('article', { name: 'Book a table' });
    await userEvent.click(within(card).getByRole('button', { name: 'Edit' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Workflow' });
    expect(within(dialog).getByLabelText('Training phrase 5')).toHaveValue('reservation please');
    expect(within(dialog).getByText('5 phrases')).not.toHaveClass('counter-warn');
    await userEvent.click(await within(dialog).findByRole('checkbox', { name: /Order status/ }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.sent('PUT', '/workflows/wf_1')).toHaveLength(1));
    expect(api.sent('PUT', '/workflows/wf_1')[0]).toMatchObject({
      title: 'Book a table',
      linked_actions: ['act_1'],
      training_phrases: workflow().training_phrases,
    });
    await waitFor(async () => expect(await toasts()).toContain('Workflow updated.'));
  });

  it('says the §8 text with the server reason when creating fails, and keeps the modal open', async () => {
    const api = fakeAutomationApi();
    api.on((r) =>
      r.method === 'POST' && r.path === '/workflows'
        ? json(422, { detail: [{ msg: 'Title is required' }] })
        : undefined,
    );
    renderWithProviders(<WorkflowsPage />);
    await screen.findByText('No workflows yet');
    await userEvent.click(screen.getByRole('button', { name: 'Add Workflow' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Create Workflow' }));
    await waitFor(async () =>
      expect(await toasts()).toContain('Failed to create workflow. Please try again. Title is required'),
    );
    expect(screen.getByRole('dialog', { name: 'Create Workflow' })).toBeInTheDocument();
  });

  it('deletes after the confirmation, and says the §8 text when deleting fails', async () => {
    const api = fakeAutomationApi({ workflows: [workflow(), workflow({ id: 'wf_2', title: 'Refund' })] });
    renderWithProviders(<WorkflowsPage />);
    const card = await screen.findByRole('article', { name: 'Book a table' });
    await userEvent.click(within(card).getByRole('button', { name: 'Delete' }));
    const confirm = screen.getByRole('dialog', { name: 'Please confirm' });
    expect(within(confirm).getByText('Are you sure you want to delete this workflow?')).toBeInTheDocument();
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(api.sent('DELETE', '/workflows/wf_1')).toHaveLength(0);

    await userEvent.click(within(card).getByRole('button', { name: 'Delete' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Book a table' })).toBeNull());
    expect(api.sent('DELETE', '/workflows/wf_1')).toHaveLength(1);

    api.on((r) => (r.method === 'DELETE' ? json(500, { detail: 'Internal Server Error' }) : undefined));
    await userEvent.click(
      within(screen.getByRole('article', { name: 'Refund' })).getByRole('button', { name: 'Delete' }),
    );
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(async () => expect(await toasts()).toContain('Failed to delete workflow. Please try again.'));
    expect(screen.getByRole('article', { name: 'Refund' })).toBeInTheDocument();
  });

  it('answers "which workflow would fire?" with the workflow, its score and the matched phrases, and warns of competing phrases', async () => {
    const api = fakeAutomationApi({ workflows: [workflow()] });
    api.on((r) =>
      r.path === '/workflows/overlaps'
        ? json(200, {
            overlaps: [
              {
                workflow_id: 'wf_1',
                workflow_title: 'Book a table',
                other_workflow_id: 'wf_2',
                other_workflow_title: 'Cancel a booking',
                phrase: 'my table booking',
                score: 0.7,
                other_score: 0.68,
              },
            ],
          })
        : r.path === '/workflows/match'
          ? json(200, {
              fired: {
                workflow_id: 'wf_1',
                title: 'Book a table',
                score: 0.82,
                matched_phrases: ['book a table', 'table tonight'],
                matched_on: 'phrase',
              },
              threshold: 0.5,
              candidates: [
                {
                  workflow_id: 'wf_1',
                  title: 'Book a table',
                  score: 0.82,
                  matched_phrases: ['book a table'],
                  matched_on: 'phrase',
                },
                {
                  workflow_id: 'wf_2',
                  title: 'Cancel a booking',
                  score: 0.31,
                  matched_phrases: [],
                  matched_on: 'trigger',
                },
              ],
            })
          : undefined,
    );
    renderWithProviders(<WorkflowsPage />);
    const box = await screen.findByRole('region', { name: 'Which workflow would fire?' });
    expect(
      await within(box).findByText(
        '"Book a table" and "Cancel a booking" have training phrases that compete: "my table booking"',
      ),
    ).toBeInTheDocument();
    await fill(within(box).getByLabelText('Visitor message'), 'I want to book a table tonight');
    await userEvent.click(within(box).getByRole('button', { name: 'Check' }));
    expect(await within(box).findByText('Fires: Book a table')).toBeInTheDocument();
    expect(within(box).getByText('Score 82% (fires at 50%)')).toBeInTheDocument();
    expect(within(box).getByText('table tonight')).toBeInTheDocument();
    expect(within(box).getByText('Close behind: Cancel a booking (31%)')).toBeInTheDocument();
    expect(api.sent('POST', '/workflows/match')).toEqual([{ message: 'I want to book a table tonight' }]);
  });

  it('says when the competing-phrases report is partial, in English and Hebrew (the server bounds its work)', async () => {
    const api = fakeAutomationApi({ workflows: [workflow()] });
    api.on((r) =>
      r.path === '/workflows/overlaps'
        ? json(200, { overlaps: [], complete: false, checked_phrases: 1071, total_phrases: 5050 })
        : undefined,
    );
    const { unmount } = renderWithProviders(<WorkflowsPage />);
    const box = await screen.findByRole('region', { name: 'Which workflow would fire?' });
    expect(await within(box).findByText(/^1071 of 5050 training phrases were compared/)).toBeInTheDocument();
    unmount();
    renderWithProviders(<WorkflowsPage />, { language: 'he' });
    expect(await screen.findByText(/^הושוו 1071 מתוך 5050 משפטי אימון/)).toBeInTheDocument();
  });

  it('speaks Hebrew', async () => {
    fakeAutomationApi();
    renderWithProviders(<WorkflowsPage />, { language: 'he' });
    expect(await screen.findByText('עדיין אין תהליכים')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'תהליכי AI' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'הוספת תהליך' }));
    expect(screen.getByLabelText('תנאי הפעלה *')).toBeInTheDocument();
  });

  it('shows how often each workflow fired in the last 30 days on its card, in English and Hebrew', async () => {
    const stats = workflowStats([
      {
        workflow_id: 'wf_1',
        title: 'Book a table',
        fired: 12,
        conversations: 7,
        last_fired_at: '2026-11-23T10:00:00Z',
      },
    ]);
    const api = fakeAutomationApi({ workflows: [workflow(), workflow({ id: 'wf_2', title: 'Refund' })] });
    api.on((r) => (r.method === 'GET' && r.path === '/workflows/stats?days=30' ? json(200, stats) : undefined));
    const { unmount } = renderWithProviders(<WorkflowsPage />);
    const booked = await screen.findByRole('article', { name: 'Book a table' });
    const badge = await within(booked).findByText('Fired: 12');
    expect(badge).toHaveClass('badge', 'badge-ready');
    expect(badge).toHaveAttribute('title', 'Times fired in the last 30 days: 12 (conversations: 7)');
    expect(within(booked).getByText('Times fired in the last 30 days: 12 (conversations: 7)')).toHaveClass(
      'visually-hidden',
    ); // what a screen reader hears
    expect(within(screen.getByRole('article', { name: 'Refund' })).getByText('Fired: 0')).not.toHaveClass(
      'badge-ready',
    ); // never fired: not in the stats
    unmount();

    renderWithProviders(<WorkflowsPage />, { language: 'he' });
    const card = await screen.findByRole('article', { name: 'Book a table' });
    expect(await within(card).findByText('הופעל: 12')).toHaveAttribute(
      'title',
      'מספר ההפעלות ב-30 הימים האחרונים: 12 (שיחות: 7)',
    );
  });

  it('shows the cards without counts when the stats cannot be read', async () => {
    const api = fakeAutomationApi({ workflows: [workflow()] });
    api.on((r) => (r.path.startsWith('/workflows/stats') ? json(500, { detail: 'Internal Server Error' }) : undefined));
    renderWithProviders(<WorkflowsPage />);
    const card = await screen.findByRole('article', { name: 'Book a table' });
    await waitFor(() => expect(api.requests.some((r) => r.path.startsWith('/workflows/stats'))).toBe(true));
    expect(within(card).queryByText(/Fired/)).toBeNull();
    expect(await toasts()).toEqual([]);
  });
});
