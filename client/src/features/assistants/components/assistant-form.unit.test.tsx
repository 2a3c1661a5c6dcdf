import '../locales';
import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { emptyForm } from '../assistant-form-rules';
import { AssistantForm } from './assistant-form';

describe('AssistantForm', () => {
  it('counts words as n/1000 and marks an over-limit field', async () => {
    renderWithProviders(<AssistantForm mode="create" initial={emptyForm} busy={false} onSubmit={vi.fn()} />);
    fireEvent.change(await screen.findByLabelText('Description *'), { target: { value: 'one two three' } });
    expect(screen.getByText('3/1000')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Description *'), { target: { value: Array(1001).fill('w').join(' ') } });
    expect(screen.getByText('1001/1000')).toHaveClass('counter-over');
  });

  it('keeps submit disabled until name, description and instructions are filled', async () => {
    renderWithProviders(<AssistantForm mode="create" initial={emptyForm} busy={false} onSubmit={vi.fn()} />);
    const submit = await screen.findByRole('button', { name: 'Create Assistant' });
    expect(submit).toBeDisabled();
    fireEvent.change(screen.getByLabelText('Assistant name *'), { target: { value: 'Shop' } });
    fireEvent.change(screen.getByLabelText('Description *'), { target: { value: 'Helps' } });
    fireEvent.change(screen.getByLabelText('Instructions *'), { target: { value: 'Be kind' } });
    expect(submit).toBeEnabled();
  });

  it('shows the spec text for an invalid website URL and does not submit', async () => {
    const onSubmit = vi.fn();
    renderWithProviders(
      <AssistantForm
        mode="create"
        initial={{ ...emptyForm, name: 'a', description: 'b', instructions: 'c' }}
        busy={false}
        onSubmit={onSubmit}
      />,
    );
    fireEvent.change(await screen.findByLabelText('Website URL'), { target: { value: 'shop dot com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create Assistant' }));
    expect(await screen.findByText('Please enter a valid website URL')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('takes "Please enter a valid website URL" away once the field is cleared or fixed, without new errors before submit (issue 22 item 16)', async () => {
    renderWithProviders(
      <AssistantForm
        mode="create"
        initial={{ ...emptyForm, name: 'a', description: 'b', instructions: 'c' }}
        busy={false}
        onSubmit={vi.fn()}
      />,
    );
    const field = await screen.findByLabelText('Website URL');
    fireEvent.change(field, { target: { value: 'shop dot com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create Assistant' }));
    expect(await screen.findByText('Please enter a valid website URL')).toBeInTheDocument();
    fireEvent.change(field, { target: { value: 'shop dot co' } });
    expect(screen.getByText('Please enter a valid website URL')).toBeInTheDocument();
    fireEvent.change(field, { target: { value: '' } });
    expect(screen.queryByText('Please enter a valid website URL')).toBeNull();
    expect(field).not.toHaveAttribute('aria-invalid', 'true');
    fireEvent.change(field, { target: { value: 'still not a url' } });
    expect(screen.queryByText('Please enter a valid website URL')).toBeNull();
  });

  it('a common prompt button appends its text, and removes it on a second press', async () => {
    const user = userEvent.setup();
    renderWithProviders(<AssistantForm mode="create" initial={emptyForm} busy={false} onSubmit={vi.fn()} />);
    const button = await screen.findByRole('button', { name: /Refer to a human/ });
    await user.click(button);
    expect(screen.getByLabelText<HTMLTextAreaElement>('Instructions *').value).toContain(
      'connect the customer with a person',
    );
    expect(button).toHaveAttribute('aria-pressed', 'true');
    await user.click(button);
    expect(screen.getByLabelText<HTMLTextAreaElement>('Instructions *').value).toBe('');
  });

  it('sales mode is disabled until the crawler is on, and the seven sales prompts appear with it', async () => {
    const user = userEvent.setup();
    renderWithProviders(<AssistantForm mode="edit" initial={emptyForm} busy={false} onSubmit={vi.fn()} />);
    const sales = await screen.findByRole('switch', { name: 'Sales Mode' });
    expect(sales).toBeDisabled();
    expect(screen.getByText('Sales mode requires the web crawler to be enabled')).toBeInTheDocument();
    await user.click(screen.getByRole('switch', { name: 'Enable web crawler' }));
    expect(sales).toBeEnabled();
    await user.click(sales);
    expect(screen.getByRole('group', { name: 'Sales prompts' }).querySelectorAll('button')).toHaveLength(7);
    await user.click(screen.getByRole('switch', { name: 'Enable web crawler' }));
    expect(sales).not.toBeChecked();
  });
});
