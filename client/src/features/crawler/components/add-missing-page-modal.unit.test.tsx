import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { AddMissingPageModal } from './add-missing-page-modal';

/** Issue 22 item 16: Add Missing Page cannot be pressed on an empty field, and clearing it clears its error. */
describe('AddMissingPageModal', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('keeps Add page disabled while the field is empty, and clearing the field takes the error away', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    renderWithProviders(
      <AddMissingPageModal previewId="p1" baseUrl="https://shop.example" onAdded={vi.fn()} onClose={vi.fn()} />,
    );
    const add = await screen.findByRole('button', { name: 'Add page' });
    const field = screen.getByLabelText('Page URL');
    expect(add).toBeDisabled();
    fireEvent.change(field, { target: { value: '   ' } });
    expect(add).toBeDisabled();

    fireEvent.change(field, { target: { value: 'not a url' } });
    expect(add).toBeEnabled();
    fireEvent.click(add);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Please enter a valid URL (including http:// or https://)',
    );
    expect(field).toHaveAttribute('aria-invalid', 'true');

    fireEvent.change(field, { target: { value: '' } });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(add).toBeDisabled();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('says it in Hebrew', async () => {
    vi.stubGlobal('fetch', vi.fn());
    renderWithProviders(
      <AddMissingPageModal previewId="p1" baseUrl="https://shop.example" onAdded={vi.fn()} onClose={vi.fn()} />,
      { language: 'he' },
    );
    const field = await screen.findByRole('textbox');
    fireEvent.change(field, { target: { value: 'x' } });
    fireEvent.submit(field.closest('form')!);
    expect(await screen.findByRole('alert')).toHaveTextContent('אנא הזינו כתובת תקינה');
    fireEvent.change(field, { target: { value: '' } });
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
