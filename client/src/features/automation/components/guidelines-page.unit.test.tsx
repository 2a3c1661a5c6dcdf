import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { action, fakeAutomationApi, fill, guideline, json, toasts } from '../testing/fake-automation-api';
import { GuidelinesPage } from './guidelines-page';

afterEach(() => vi.unstubAllGlobals());
// Whole forms filled through the DOM: slower than the 5 s default on a loaded 2-core machine.
vi.setConfig({ testTimeout: 20_000 });

const three = () => [
  guideline(),
  guideline({
    id: 'gl_2',
    title: 'Prices in USD',
    category: 'standardize',
    instructions: 'Always show prices in USD.',
    active: false,
    linked_actions: ['act_1'],
  }),
  guideline({ id: 'gl_3', title: 'Bullets', category: 'format', instructions: 'Use bullet lists for steps.' }),
];

describe('the guidelines page', () => {
  it('shows cards with the category badge, the toggle, linked actions, and inactive ones styled apart', async () => {
    fakeAutomationApi({ guidelines: three(), actions: [action()] });
    renderWithProviders(<GuidelinesPage />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading...');
    const usd = await screen.findByRole('article', { name: 'Prices in USD' });
    expect(within(usd).getByText('Standardization')).toHaveClass('badge');
    expect(within(usd).getByRole('switch', { name: 'Active: Prices in USD' })).not.toBeChecked();
    expect(usd).toHaveClass('automation-card-inactive');
    expect(await within(usd).findByText('Order status')).toBeInTheDocument();
    const tone = screen.getByRole('article', { name: 'Friendly tone' });
    expect(tone).not.toHaveClass('automation-card-inactive');
    expect(within(tone).getByRole('switch')).toBeChecked();
  });

  it('filters by category and searches the title or the instructions', async () => {
    fakeAutomationApi({ guidelines: three() });
    renderWithProviders(<GuidelinesPage />);
    await screen.findByRole('article', { name: 'Friendly tone' });
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Category' }), 'format');
    expect(screen.getAllByRole('article').map((a) => a.getAttribute('aria-label'))).toEqual(['Bullets']);
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Category' }), 'all');
    await fill(screen.getByRole('searchbox', { name: 'Search' }), 'usd');
    expect(screen.getAllByRole('article').map((a) => a.getAttribute('aria-label'))).toEqual(['Prices in USD']);
  });

  it('toggles with the opposite of the current value only, and a failed toggle is only logged', async () => {
    const api = fakeAutomationApi({ guidelines: three() });
    renderWithProviders(<GuidelinesPage />);
    const toggle = await screen.findByRole('switch', { name: 'Active: Friendly tone' });
    await userEvent.click(toggle);
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Active: Friendly tone' })).not.toBeChecked());
    expect(api.sent('PUT', '/guidelines/gl_1')).toEqual([{ active: false }]);
    expect(screen.getByRole('article', { name: 'Friendly tone' })).toHaveClass('automation-card-inactive');

    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    api.on((r) => (r.method === 'PUT' ? json(500, { detail: 'Internal Server Error' }) : undefined));
    await userEvent.click(screen.getByRole('switch', { name: 'Active: Prices in USD' }));
    await waitFor(() => expect(logged).toHaveBeenCalled());
    expect(screen.getByRole('switch', { name: 'Active: Prices in USD' })).not.toBeChecked();
    expect(await toasts()).toEqual([]);
  });

  it('creates a guideline with the category examples, an @ reference to an action, and Active on by default', async () => {
    const api = fakeAutomationApi({ actions: [action()] });
    renderWithProviders(<GuidelinesPage />);
    expect(await screen.findByText('No guidelines yet')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Add Guideline' }));
    const dialog = screen.getByRole('dialog', { name: 'Create Guideline' });
    expect(within(dialog).getByLabelText('Title *')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Instructions *')).toBeInTheDocument();
    expect(within(dialog).getByText('Tip: type @ to reference one of your actions.')).toBeInTheDocument();
    expect(within(dialog).getByText('Examples for Tone')).toBeInTheDocument();
    await userEvent.selectOptions(within(dialog).getByLabelText('Category *'), 'standardize');
    expect(
      within(dialog).getByText('Always show prices in USD with two decimals, for example $25.00.'),
    ).toBeInTheDocument();
    await userEvent.click(within(dialog).getAllByRole('button', { name: 'Use this example' })[0]!);
    expect(within(dialog).getByLabelText('Instructions *')).toHaveValue(
      'Always show prices in USD with two decimals, for example $25.00.',
    );

    const instructions = within(dialog).getByLabelText('Instructions *');
    await userEvent.click(instructions);
    await userEvent.keyboard('{End} For orders see @ord');
    await userEvent.click(await within(dialog).findByRole('button', { name: '@Order status' }));
    expect(instructions).toHaveValue(
      'Always show prices in USD with two decimals, for example $25.00. For orders see @Order status ',
    );
    expect(within(dialog).getByRole('checkbox', { name: /Order status/ })).toBeChecked();
    expect(within(dialog).getByRole('checkbox', { name: 'Active' })).toBeChecked();
    await fill(within(dialog).getByLabelText('Title *'), 'Prices');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Guideline' }));

    expect(await screen.findByRole('article', { name: 'Prices' })).toBeInTheDocument();
    expect(api.sent('POST', '/guidelines')).toEqual([
      // the transport trims what it sends
      {
        title: 'Prices',
        category: 'standardize',
        instructions: 'Always show prices in USD with two decimals, for example $25.00. For orders see @Order status',
        linked_actions: ['act_1'],
        active: true,
      },
    ]);
  });

  it('edits without the examples and says the §8 texts when saving or deleting fails', async () => {
    const api = fakeAutomationApi({ guidelines: three() });
    api.on((r) =>
      r.method === 'PUT' || r.method === 'DELETE' ? json(500, { detail: 'Internal Server Error' }) : undefined,
    );
    renderWithProviders(<GuidelinesPage />);
    const card = await screen.findByRole('article', { name: 'Bullets' });
    await userEvent.click(within(card).getByRole('button', { name: 'Edit' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Guideline' });
    expect(within(dialog).queryByText(/Examples for/)).toBeNull();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(async () => expect(await toasts()).toContain('Failed to update guideline. Please try again.'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    await userEvent.click(within(card).getByRole('button', { name: 'Delete' }));
    expect(screen.getByText('Are you sure you want to delete this guideline?')).toBeInTheDocument();
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(async () => expect(await toasts()).toContain('Failed to delete guideline. Please try again.'));
  });

  it('speaks Hebrew: categories, the toggle and the empty state', async () => {
    fakeAutomationApi({ guidelines: [guideline({ category: 'phrase' })] });
    renderWithProviders(<GuidelinesPage />, { language: 'he' });
    const card = await screen.findByRole('article', { name: 'Friendly tone' });
    expect(within(card).getByText('ניסוחים מועדפים')).toBeInTheDocument();
    expect(within(card).getByRole('switch', { name: 'פעילה: Friendly tone' })).toBeChecked();
    expect(screen.getByRole('option', { name: 'כל הקטגוריות' })).toBeInTheDocument();
  });
});
