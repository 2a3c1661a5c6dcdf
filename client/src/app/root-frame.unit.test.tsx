import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { api } from '@/lib/api-client';
import { renderRoutes } from '@/test/render';
import { RootFrame } from './root-frame';
import { z } from 'zod';

vi.mock('@/lib/pwa', () => ({ onUpdateAvailable: () => () => undefined }));

const routes = [
  {
    element: <RootFrame />,
    children: [
      { path: '/', element: <p>about page</p> },
      { path: '/login', element: <p>login page</p> },
      { path: '/dashboard', element: <p>dashboard page</p> },
    ],
  },
];

describe('a 401 from the API', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('signs the user out, says so, and goes to /login after 100 ms', async () => {
    window.history.replaceState(null, '', '/dashboard');
    localStorage.setItem('firebaseToken', 'a-long-session-token');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ detail: 'x' }), { status: 401 })),
    );
    const { router } = renderRoutes(routes, { path: '/dashboard' });
    await screen.findByText('dashboard page');
    vi.useFakeTimers();
    await act(() => api.get('/assistants/', z.array(z.unknown())).catch(() => undefined));
    expect(screen.getByText('Authentication required. Please log in again.')).toBeInTheDocument();
    expect(localStorage.getItem('firebaseToken')).toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(99));
    expect(router.state.location.pathname).toBe('/dashboard');
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(router.state.location.pathname).toBe('/login');
    expect(screen.getByText('login page')).toBeInTheDocument();
  });

  it('does not move a visitor who is on / already', async () => {
    window.history.replaceState(null, '', '/');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('', { status: 401 })),
    );
    const { router } = renderRoutes(routes, { path: '/' });
    await screen.findByText('about page');
    await act(() => api.get('/auth/me', z.unknown()).catch(() => undefined));
    expect(router.state.location.pathname).toBe('/');
    expect(screen.queryByText('Authentication required. Please log in again.')).toBeNull();
  });
});
