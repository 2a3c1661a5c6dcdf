import '../locales';
import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderRoutes } from '@/test/render';
import { RegisterPage } from './register-page';

const routes = [
  { path: '/register', element: <RegisterPage /> },
  { path: '/dashboard', element: <p>dashboard page</p> },
];

describe('RegisterPage', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('shows only the first failing password rule and the strength', async () => {
    renderRoutes(routes, { path: '/register', language: 'he' });
    const password = await screen.findByLabelText('Password');
    fireEvent.change(password, { target: { value: 'abc' } });
    expect(screen.getByText('Password must be at least 10 characters long')).toBeInTheDocument();
    expect(screen.queryByText('Password must contain at least one uppercase letter')).toBeNull();
    expect(screen.getByText('Password strength: Very weak')).toBeInTheDocument();
    fireEvent.change(password, { target: { value: 'abcdefghij1' } });
    expect(screen.getByText('Password must contain at least one uppercase letter')).toBeInTheDocument();
    expect(screen.getByText('Password strength: Weak')).toBeInTheDocument();
    fireEvent.change(password, { target: { value: 'Abcdefghij1' } });
    expect(screen.getByText('Password strength: Medium')).toBeInTheDocument();
    fireEvent.change(password, { target: { value: 'Abcdefghij1!' } });
    expect(screen.getByText('Password strength: Strong')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('is shown in English even when Hebrew is chosen', async () => {
    renderRoutes(routes, { path: '/register', language: 'he' });
    expect(await screen.findByRole('heading', { name: 'Create your account' })).toBeInTheDocument();
    expect(document.documentElement.dir).toBe('ltr');
  });

  it('requires the terms, then registers, says so, and goes to the dashboard after 2 s', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) =>
        url.endsWith('/auth/register')
          ? new Response(
              JSON.stringify({
                access_token: 'a-long-session-token',
                token_type: 'bearer',
                expires_in: 3600,
                user: {
                  uid: 'u1',
                  email: 'a@b.co',
                  displayName: null,
                  username: 'a',
                  photoURL: null,
                  providerId: 'password',
                },
              }),
              { status: 201 },
            )
          : new Response(JSON.stringify({ google_client_id: null, demo_accounts: false }), { status: 200 }),
      ),
    );
    const { router } = renderRoutes(routes, { path: '/register' });
    fireEvent.change(await screen.findByLabelText('Email'), { target: { value: 'a@b.co' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'Abcdefghij1!' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(
      await screen.findByText('You must agree to the Terms of Service and Privacy Policy to continue'),
    ).toBeInTheDocument();
    fireEvent.click(screen.getByLabelText(/I agree to the/));
    vi.useFakeTimers({ shouldAdvanceTime: true });
    fireEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(await screen.findByText('Registered successfully! Redirecting to dashboard...')).toBeInTheDocument();
    expect(localStorage.getItem('firebaseToken')).toBe('a-long-session-token');
    expect(router.state.location.pathname).toBe('/register');
    await vi.advanceTimersByTimeAsync(2000);
    expect(await screen.findByText('dashboard page')).toBeInTheDocument();
  });
});
