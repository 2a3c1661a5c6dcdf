import { widgetAttributes, type WidgetSettings } from '../../../widget/options';

const escapeAttribute = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The snippet a site owner pastes (spec part 2 §2 "Embed Code"): widget.js from this Kesher, the share
 * token and every setting as a data attribute — the same names widget.js reads (widget/options.ts).
 * `async` so the customer's page never waits for it.
 */
export function embedCode(origin: string, shareToken: string, settings: WidgetSettings): string {
  const attributes = widgetAttributes(shareToken, settings)
    .map(([name, value]) => `\n  ${name}="${escapeAttribute(value)}"`)
    .join('');
  return `<script src="${escapeAttribute(origin)}/widget.js"${attributes}\n  async></script>`;
}
