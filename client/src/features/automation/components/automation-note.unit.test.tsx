import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { jsonResponse, stubApi } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render';
import { conversationAutomation } from '../testing/fake-automation-api';
import AutomationNote, { FOLLOW_UP_MS } from './automation-note';

afterEach(() => vi.unstubAllGlobals());
vi.setConfig({ testTimeout: 20_000 });

const ROUTE = 'GET /automation/conversations/thread_1';

describe("the automation note under an answer in the owner's chat", () => {
  it('says which workflow fired for this answer and why, its instructions then, and how its action went', async () => {
    const calls = stubApi({ [ROUTE]: () => jsonResponse(conversationAutomation()) });
    renderWithProviders(<AutomationNote threadId="thread_1" runId="run_1" fresh={false} />);
    const summary = await screen.findByText(/Automation/);
    expect(summary.closest('summary')).toHaveTextContent('Automation — Workflow: Book a table');
    const note = summary.closest('details')!;
    expect(note).not.toHaveAttribute('open'); // one line until the owner opens it (phones)
    await userEvent.click(summary);
    expect(note).toHaveAttribute('open');
    expect(note).toHaveTextContent('Book a table Fired by this message (score 87%).');
    expect([...note.querySelectorAll('.automation-note-phrases li')].map((li) => li.textContent)).toEqual([
      'book a table',
      'table tonight',
    ]);
    expect(note).toHaveTextContent('Its instructions at the time: Ask for the date and the number of guests.');
    expect(note).toHaveTextContent('Order status: succeeded · HTTP 200 · 123 ms');
    expect(note).not.toHaveTextContent('503'); // run_2's call belongs to the next answer
    expect(calls.map((c) => c.call)).toEqual([ROUTE]);
  });

  it('says a workflow still in force from an earlier message, and a failed action with its reason', async () => {
    stubApi({ [ROUTE]: () => jsonResponse(conversationAutomation()) });
    renderWithProviders(<AutomationNote threadId="thread_1" runId="run_2" fresh={false} />);
    const note = (await screen.findByText(/Automation/)).closest('details')!;
    expect(note).toHaveTextContent('Still in force from an earlier message.');
    expect(note).not.toHaveTextContent('score');
    expect(note).toHaveTextContent('Order status: failed · HTTP 503 · 80 ms — The endpoint answered HTTP 503');
    expect(note.querySelector('.automation-note-failed')).toHaveTextContent('failed');
  });

  it('names the trigger condition when the message matched it, and counts actions that ran without a workflow', async () => {
    const data = conversationAutomation({
      firings: [
        {
          run_id: 'run_1',
          workflow_id: 'wf_1',
          title: 'Book a table',
          score: 0.71,
          matched_on: 'trigger',
          matched_phrases: [],
          fired_at: '2026-11-23T10:01:00Z',
        },
      ],
      action_calls: [
        {
          call_id: 'c',
          run_id: 'run_9',
          action_id: 'act_1',
          title: 'Order status',
          success: true,
          status_code: null,
          duration_ms: 12,
          error: null,
          called_at: '2026-11-23T10:01:00Z',
        },
      ],
    });
    stubApi({ [ROUTE]: () => jsonResponse(data) });
    renderWithProviders(
      <>
        <AutomationNote threadId="thread_1" runId="run_1" fresh={false} />
        <AutomationNote threadId="thread_1" runId="run_9" fresh={false} />
      </>,
    );
    await waitFor(() => expect(document.querySelectorAll('details.automation-note')).toHaveLength(2));
    const [first, second] = document.querySelectorAll('details.automation-note');
    expect(first).toHaveTextContent('Fired: this message matched its trigger condition (score 71%).');
    expect(second!.querySelector('summary')).toHaveTextContent('Automation — Actions: 1');
    expect(second).toHaveTextContent('Order status: succeeded · 12 ms'); // a knowledge-base action has no HTTP status
  });

  it('shows nothing for an answer automation did nothing for, nor when its record cannot be read', async () => {
    stubApi({
      [ROUTE]: () => jsonResponse(conversationAutomation()),
      'GET /automation/conversations/thread_x': () => jsonResponse({ detail: 'Thread not found' }, 404),
    });
    const { container, queryClient } = renderWithProviders(
      <>
        <AutomationNote threadId="thread_1" runId="run_3" fresh={false} />
        <AutomationNote threadId="thread_x" runId="run_1" fresh={false} />
      </>,
    );
    await waitFor(() => expect(vi.mocked(fetch)).toHaveBeenCalledTimes(2));
    // Both answers read (one a record without these runs, one a 404), not merely asked for.
    await waitFor(() =>
      expect(
        queryClient
          .getQueryCache()
          .getAll()
          .map((q) => q.state.status)
          .sort(),
      ).toEqual(['error', 'success']),
    );
    expect(container).toBeEmptyDOMElement();
  });

  it('asks again for an answer that has just arrived until its run is recorded, then stops', async () => {
    // The follow-ups are timers: fake ones, moved on by the test, so no real seconds pass.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    onTestFinished(() => void vi.useRealTimers());
    let recorded = false;
    const calls = stubApi({
      [ROUTE]: () =>
        jsonResponse(recorded ? conversationAutomation() : conversationAutomation({ firings: [], action_calls: [] })),
    });
    renderWithProviders(<AutomationNote threadId="thread_1" runId="run_1" fresh />);
    // vi.waitFor moves the fake clock on between its checks (Testing Library's waitFor would not).
    await vi.waitFor(() => expect(calls.length).toBeGreaterThanOrEqual(1));
    expect(document.querySelector('details')).toBeNull();
    recorded = true; // the read model catches up with the answer
    await vi.advanceTimersByTimeAsync(FOLLOW_UP_MS[1]!);
    await vi.waitFor(() => expect(screen.getByText(/Workflow: Book a table/)).toBeInTheDocument());
    const asked = calls.length;
    await vi.advanceTimersByTimeAsync(FOLLOW_UP_MS.at(-1)! - FOLLOW_UP_MS[1]! + 1_000);
    expect(calls.length).toBe(asked); // recorded: no more asking
  });

  it('speaks Hebrew', async () => {
    stubApi({ [ROUTE]: () => jsonResponse(conversationAutomation()) });
    renderWithProviders(<AutomationNote threadId="thread_1" runId="run_2" fresh={false} />, { language: 'he' });
    const note = (await screen.findByText(/אוטומציה/)).closest('details')!;
    expect(note.querySelector('summary')).toHaveTextContent('אוטומציה — תהליך: Book a table');
    expect(note).toHaveTextContent('עדיין בתוקף מהודעה קודמת.');
    expect(note).toHaveTextContent('Order status: נכשלה · HTTP 503 · 80 מילישניות');
  });
});
