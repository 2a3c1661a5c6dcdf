/**
 * Whether a website lets itself be shown inside another page. A site that refuses (X-Frame-Options,
 * CSP frame-ancestors) still fires `load` on an <iframe> — the browser puts its own error page there —
 * and a cross-origin frame cannot be looked into, so the preview's frame cannot tell. An <object> can:
 * the browser fires `error` on it when the page refuses to be embedded, answers with an error status
 * or cannot be reached, and `load` when the page is shown. The probe is invisible, inert to the
 * pointer and removed as soon as it has its answer.
 *
 * A page whose own Content-Security-Policy forbids objects (`object-src 'none'`) makes every probe fail
 * the same way, so a control probe (an icon of this origin) first checks that objects may load here at
 * all; if not, the answer is 'unknown' and the preview relies on its load timeout alone.
 */
export type FrameAnswer = 'shown' | 'refused' | 'unknown';

interface Options {
  timeoutMs: number;
  signal?: AbortSignal;
}

function loadAsObject(url: string, type: string, { timeoutMs, signal }: Options): Promise<FrameAnswer> {
  return new Promise((resolve) => {
    if (typeof document === 'undefined' || signal?.aborted) return resolve('unknown');
    const probe = document.createElement('object');
    probe.type = type;
    probe.data = url;
    probe.setAttribute('aria-hidden', 'true');
    probe.tabIndex = -1;
    probe.dataset.frameProbe = '';
    probe.style.cssText =
      'position:fixed;inset-inline-start:-10000px;top:0;inline-size:1px;block-size:1px;opacity:0;pointer-events:none;';
    const finish = (answer: FrameAnswer) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', abort);
      probe.remove();
      resolve(answer);
    };
    const abort = () => finish('unknown');
    const timer = setTimeout(() => finish('unknown'), timeoutMs);
    probe.addEventListener('load', () => finish('shown'), { once: true });
    probe.addEventListener('error', () => finish('refused'), { once: true });
    signal?.addEventListener('abort', abort, { once: true });
    document.body.append(probe);
  });
}

/** The control: an object of this origin loads unless this page's policy forbids objects. Asked once per page. */
export const CONTROL_URL = '/icons/icon-192.png';
let control: Promise<boolean | null> | null = null;

function pageAllowsObjects(timeoutMs: number): Promise<boolean | null> {
  control ??= loadAsObject(CONTROL_URL, 'image/png', { timeoutMs }).then((answer) => {
    if (answer === 'unknown') control = null; // no answer in time: ask again next time
    return answer === 'unknown' ? null : answer === 'shown';
  });
  return control;
}

export async function probeFraming(url: string, options: Options): Promise<FrameAnswer> {
  if (!(await pageAllowsObjects(options.timeoutMs)) || options.signal?.aborted) return 'unknown';
  return loadAsObject(url, 'text/html', options);
}

/** Tests only: forget the control's answer. */
export const resetFrameProbe = () => void (control = null);
