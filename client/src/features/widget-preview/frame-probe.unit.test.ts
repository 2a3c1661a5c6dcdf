import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CONTROL_URL, probeFraming, resetFrameProbe } from './frame-probe';

/** The probe element for `url` once it is in the page (the control is asked first). */
async function probeFor(url: string) {
  await vi.waitFor(() => {
    if (!document.querySelector(`object[data-frame-probe][data="${url}"]`)) throw new Error(`no probe for ${url} yet`);
  });
  return document.querySelector<HTMLObjectElement>(`object[data-frame-probe][data="${url}"]`)!;
}
const fire = async (url: string, type: 'load' | 'error') => (await probeFor(url)).dispatchEvent(new Event(type));

describe('probeFraming', () => {
  beforeEach(() => resetFrameProbe());
  afterEach(() => vi.useRealTimers());

  it('answers "refused" when the browser will not show the page (its error event) and cleans up', async () => {
    const answer = probeFraming('https://no-frames.example/', { timeoutMs: 10_000 });
    await fire(CONTROL_URL, 'load');
    const probe = await probeFor('https://no-frames.example/');
    expect(probe.getAttribute('aria-hidden')).toBe('true');
    probe.dispatchEvent(new Event('error'));
    expect(await answer).toBe('refused');
    expect(document.querySelector('object[data-frame-probe]')).toBeNull();
  });

  it('answers "shown" on load, and asks the control only once', async () => {
    const first = probeFraming('https://frames-ok.example/', { timeoutMs: 10_000 });
    await fire(CONTROL_URL, 'load');
    await fire('https://frames-ok.example/', 'load');
    expect(await first).toBe('shown');
    const second = probeFraming('https://frames-ok.example/', { timeoutMs: 10_000 });
    await fire('https://frames-ok.example/', 'load');
    expect(await second).toBe('shown');
  });

  it('cannot tell when this page forbids objects (object-src): "unknown", not "refused"', async () => {
    const answer = probeFraming('https://frames-ok.example/', { timeoutMs: 10_000 });
    await fire(CONTROL_URL, 'error');
    expect(await answer).toBe('unknown');
    expect(document.querySelector('object[data-frame-probe]')).toBeNull();
  });

  it('answers "unknown" when nothing is heard in time, or when it is called off', async () => {
    const controller = new AbortController();
    const cancelled = probeFraming('https://slow.example/', { timeoutMs: 10_000, signal: controller.signal });
    await fire(CONTROL_URL, 'load');
    await probeFor('https://slow.example/');
    controller.abort();
    expect(await cancelled).toBe('unknown');
    vi.useFakeTimers();
    const late = probeFraming('https://slow.example/', { timeoutMs: 10_000 });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(await late).toBe('unknown');
    expect(document.querySelector('object[data-frame-probe]')).toBeNull();
  });
});
