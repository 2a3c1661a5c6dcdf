import { describe, expect, it, vi } from 'vitest';
import { emptyForm } from './assistant-form-rules';
import { type CreateStep, runCreateFlow, stepProgress, toCreateBody } from './create-flow';

const values = { ...emptyForm, name: 'Shop', description: 'd', instructions: 'i' };

describe('the create flow (spec §4)', () => {
  it('reports 20, 40, upload, 100 in order', async () => {
    const steps: CreateStep[] = [];
    await runCreateFlow(values, new File(['x'], 'a.txt'), {
      create: async () => ({ assistant_id: 7 }),
      upload: async () => undefined,
      startCrawler: null,
      onStep: (s) => steps.push(s),
      onWarning: () => undefined,
    });
    expect(steps.map((s) => stepProgress[s])).toEqual([20, 40, 55, 100]);
  });

  it('warns about failed side steps but still finishes with the assistant', async () => {
    const onWarning = vi.fn();
    const result = await runCreateFlow(
      { ...values, crawlerEnabled: true, websiteUrl: 'https://shop.example.com' },
      new File(['x'], 'a.txt'),
      {
        create: async () => ({ assistant_id: 9, failed_functions: ['lookup'] }),
        upload: async () => Promise.reject(new Error('disk full')),
        startCrawler: null,
        onStep: () => undefined,
        onWarning,
      },
    );
    expect(result.assistantId).toBe(9);
    expect(onWarning.mock.calls.map((c) => c[0])).toEqual(['warnFunctions', 'warnUpload', 'warnCrawler']);
  });

  it('imports the files chosen from Google Drive at 62 % once the assistant exists, warns about the ones that failed, and skips the step when nothing was chosen', async () => {
    const steps: CreateStep[] = [];
    const onWarning = vi.fn();
    const run = vi.fn(async (assistantId: number) => (assistantId === 7 ? { failed: ['Prices.xlsx'] } : null));
    await runCreateFlow(values, null, {
      create: async () => ({ assistant_id: 7 }),
      drive: { chosen: () => true, run },
      startCrawler: null,
      onStep: (s) => steps.push(s),
      onWarning,
    });
    expect(run).toHaveBeenCalledWith(7);
    expect(steps.map((s) => stepProgress[s])).toEqual([20, 40, 62, 100]);
    expect(onWarning).toHaveBeenCalledWith('warnDrive', { names: 'Prices.xlsx' });

    const quiet: CreateStep[] = [];
    await runCreateFlow(values, null, {
      create: async () => ({ assistant_id: 8 }),
      drive: { chosen: () => false, run },
      startCrawler: null,
      onStep: (s) => quiet.push(s),
      onWarning,
    });
    expect(quiet).not.toContain('drive');
  });

  it('answers where to connect Google Drive for the new assistant when the owner asked to connect it after creating', async () => {
    const result = await runCreateFlow(values, null, {
      create: async () => ({ assistant_id: 5 }),
      drive: {
        chosen: () => true,
        run: async (id) => ({ redirectTo: `https://accounts.example/consent?assistant=${id}` }),
      },
      startCrawler: null,
      onStep: () => undefined,
      onWarning: () => undefined,
    });
    expect(result.redirectTo).toBe('https://accounts.example/consent?assistant=5');
  });

  it('fails when the assistant itself cannot be created', async () => {
    await expect(
      runCreateFlow(values, null, {
        create: async () => Promise.reject(new Error('no')),
        startCrawler: null,
        onStep: () => undefined,
        onWarning: () => undefined,
      }),
    ).rejects.toThrow('no');
  });

  it('sends the crawler with the create defaults and no sales mode unless chosen', () => {
    const body = toCreateBody({ ...values, crawlerEnabled: true, websiteUrl: 'https://a.co' });
    expect(body.web_crawler).toEqual({
      enabled: true,
      web_crawler_config: { url: 'https://a.co', max_pages: 2000, max_depth: 10, delete_orphaned_pages: false },
    });
    expect(body.sales_mode).toBeNull();
  });
});
