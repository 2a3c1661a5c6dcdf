import type { SmartCrawlPreviewResponse } from '@kesher/contracts';
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { FileSelectionModal } from './file-selection-modal';

const preview = {
  preview_id: 'p1',
  crawl_result: { base_url: 'http://shop.example/' },
  preview_files: [],
} as unknown as SmartCrawlPreviewResponse;

/** Issue 22 item 7: in the Hebrew sentence the site's address keeps its own left-to-right order ("/http://…" before). */
describe('FileSelectionModal header', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('isolates the address left to right inside the Hebrew sentence', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('[]', { status: 200, headers: { 'content-type': 'application/json' } })),
    );
    renderWithProviders(
      <FileSelectionModal assistant={{ id: 1, name: 'Shop' }} preview={preview} onClose={vi.fn()} onDone={vi.fn()} />,
      { language: 'he' },
    );
    const found = await screen.findByText((_, element) => element?.classList.contains('crawl-found') ?? false);
    expect(found.textContent).toBe('נמצאו 0 דפים ב-\u2066http://shop.example/\u2069');
    expect(found).toHaveAttribute('dir', 'auto');
  });
});
