import type { AssistantDto } from '@kesher/contracts';
import { act, renderHook, screen, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sampleAssistant } from '@/test/fixtures';
import { renderWithProviders, testQueryClient } from '@/test/render';
import { useCreateAssistant } from '../api/create-assistant';
import { DashboardPage } from './dashboard-page';

const assistant = sampleAssistant;

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('the dashboard list', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('says a failed load (with Try Again) even while the cached list is on screen', async () => {
    const fetchMock = vi.fn(async () => json(500, { detail: 'Server error occurred. Please try again later.' }));
    vi.stubGlobal('fetch', fetchMock);
    const queryClient = testQueryClient();
    queryClient.setQueryData(['assistants'], [assistant(1, 'Shop helper')], { updatedAt: 0 }); // last seen long ago
    renderWithProviders(<DashboardPage userName="Dana" renderFilesModal={() => null} />, { queryClient });
    expect(await screen.findByRole('alert')).toHaveTextContent('Server error occurred. Please try again later.');
    expect(screen.getByRole('button', { name: 'Try Again' })).toBeInTheDocument();
    expect(screen.getByText('Shop helper')).toBeInTheDocument(); // the last-seen list stays
    expect(fetchMock).toHaveBeenCalled();

    fetchMock.mockImplementation(async () => json(200, [assistant(1, 'Shop helper'), assistant(2, 'Cafe helper')]));
    await act(async () => screen.getByRole('button', { name: 'Try Again' }).click());
    expect(await screen.findByText('Cafe helper')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
  });

  it('offline, the badge says Offline and the list empties behind the network error banner; online again, the cards are back', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json(200, [assistant(1, 'Shop helper')])),
    );
    const queryClient = testQueryClient();
    queryClient.setQueryData(['assistants'], [assistant(1, 'Shop helper')]);
    function Connection() {
      const [online, setOnline] = useState(false);
      return (
        <>
          <button type="button" onClick={() => setOnline(true)}>
            reconnect
          </button>
          <DashboardPage userName="Dana" online={online} renderFilesModal={() => null} />
        </>
      );
    }
    renderWithProviders(<Connection />, { queryClient });
    expect(screen.getByText('Offline')).toBeInTheDocument();
    expect(screen.queryByText('Online')).toBeNull();
    expect(screen.queryByText('Shop helper')).toBeNull();
    expect(screen.queryByText(/You have 1 assistant/)).toBeNull();
    expect(screen.getByRole('alert')).toHaveTextContent('Network error. Please check your connection and try again.');
    expect(screen.getByRole('button', { name: 'Try Again' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to Login' })).toHaveAttribute('href', '/login');

    await act(async () => screen.getByRole('button', { name: 'reconnect' }).click());
    expect(await screen.findByText('Shop helper')).toBeInTheDocument();
    expect(screen.getByText('Online')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('after a create, the cached list already holds the new assistant (no "0 assistants" on the way back)', async () => {
    let list: AssistantDto[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        if (url === '/api/v1/assistants/' && init.method === 'POST') {
          list = [assistant(7, 'New helper')];
          return json(201, { assistant_id: 7, openai_assistant_id: 'asst_abcdefghijklmnopqrstuvwx' });
        }
        return json(200, list);
      }),
    );
    const queryClient = testQueryClient();
    queryClient.setQueryData(['assistants'], []); // the dashboard was seen before, empty
    const { result } = renderHook(() => useCreateAssistant(), {
      wrapper: ({ children }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>,
    });
    await act(() => result.current.mutateAsync({ name: 'New helper', description: 'd', instructions: 'i' }));
    expect(queryClient.getQueryData<AssistantDto[]>(['assistants'])?.map((a) => a.id)).toEqual([7]);

    renderWithProviders(<DashboardPage userName="Dana" renderFilesModal={() => null} />, { queryClient });
    expect(screen.getByText('You have 1 assistant')).toBeInTheDocument();
    expect(screen.queryByText('You have 0 assistants')).toBeNull();
  });
});
