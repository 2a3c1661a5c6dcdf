import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderRoutes } from '@/test/render';
import { en } from '../locales/delete-account/en';
import { he } from '../locales/delete-account/he';
import { DeleteAccountCard } from './delete-account';

/** The same keys in both languages, nested: a text missing in one would show its key. */
const keysOf = (bundle: object, prefix = ''): string[] =>
  Object.entries(bundle).flatMap(([key, value]) =>
    typeof value === 'object' ? keysOf(value as object, `${prefix}${key}.`) : [`${prefix}${key}`],
  );

describe('DeleteAccountCard', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('has every text in Hebrew and English', () => {
    expect(keysOf(he).sort()).toEqual(keysOf(en).sort());
  });

  it('asks for the password again, and shows why a wrong one is refused', async () => {
    const calls: { method: string; url: string; body: unknown }[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit = {}) => {
        calls.push({ method: init.method ?? 'GET', url, body: init.body ? JSON.parse(String(init.body)) : undefined });
        return new Response(JSON.stringify({ detail: 'The password is incorrect.' }), { status: 403 });
      }),
    );
    renderRoutes([{ path: '/settings', element: <DeleteAccountCard /> }], { path: '/settings', language: 'he' });
    fireEvent.click(await screen.findByRole('button', { name: he.open }));
    const confirm = screen.getAllByRole('button', { name: he.confirm }).at(-1)!;
    expect(confirm).toBeDisabled();
    fireEvent.change(screen.getByLabelText(he.password), { target: { value: 'my-password' } });
    fireEvent.click(confirm);
    expect(await screen.findByText(he.errors.wrongPassword)).toBeInTheDocument();
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'DELETE')).toMatchObject({
        url: expect.stringMatching(/\/auth\/me$/),
        body: { password: 'my-password' },
      }),
    );
  });
});
