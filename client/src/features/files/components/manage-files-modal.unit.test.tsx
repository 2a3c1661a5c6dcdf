import type { KnowledgeFileDto } from '@kesher/contracts';
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { serverText } from '@/lib/server-texts';
import { renderWithProviders } from '@/test/render';
import { ManageFilesModal } from './manage-files-modal';

const reason = 'The PDF is password-protected. Remove the password and upload it again.';
const files: KnowledgeFileDto[] = [
  {
    id: 'file_ok',
    filename: 'menu.txt',
    bytes: 120,
    created_at: 1_780_000_000,
    status: 'ready',
    status_reason: null,
    source_url: null,
  },
  {
    id: 'file_locked',
    filename: 'prices.pdf',
    bytes: 4096,
    created_at: 1_780_000_000,
    status: 'failed',
    status_reason: reason,
    source_url: null,
  },
];

function stubFilesApi() {
  vi.stubGlobal(
    'fetch',
    vi.fn(
      async () => new Response(JSON.stringify(files), { status: 200, headers: { 'content-type': 'application/json' } }),
    ),
  );
}

/** Issue 22 item 16: a file that could not be read says why, not only "Failed". */
describe('ManageFilesModal: a failed file', () => {
  afterEach(() => vi.unstubAllGlobals());

  it("shows the server's reason beside Failed", async () => {
    stubFilesApi();
    renderWithProviders(<ManageFilesModal assistant={{ id: 7, name: 'Bakery' }} onClose={vi.fn()} />);
    const failed = (await screen.findByText('prices.pdf')).closest('li')!;
    expect(failed).toHaveTextContent('Failed');
    expect(failed).toHaveTextContent(reason);
    expect(screen.getByText('Failed')).toHaveAccessibleDescription(reason);
    expect(screen.getByText('menu.txt').closest('li')).not.toHaveTextContent('password');
  });

  it('says it in Hebrew on a Hebrew page', async () => {
    stubFilesApi();
    renderWithProviders(<ManageFilesModal assistant={{ id: 7, name: 'Bakery' }} onClose={vi.fn()} />, {
      language: 'he',
    });
    const failed = (await screen.findByText('prices.pdf')).closest('li')!;
    expect(failed).toHaveTextContent('נכשל');
    expect(failed).toHaveTextContent('קובץ ה-PDF מוגן בסיסמה. הסירו את הסיסמה והעלו אותו שוב.');
  });

  it('has the Hebrew of the parametrised reasons too', () => {
    expect(
      serverText('The file could not be read: it looks damaged or is not a real Word document (.docx).', 'he'),
    ).toBe('לא הצלחנו לקרוא את הקובץ: נראה שהוא פגום או שאינו מסמך Word ‏(‎.docx‎) אמיתי.');
    expect(
      serverText(
        'The file took too long to read (more than 30 seconds). Split it into smaller files or save it in a simpler format, then upload it again.',
        'he',
      ),
    ).toContain('יותר מ-30 שניות');
  });
});
