/**
 * What the router shows while the first page's code loads (its HydrateFallback): the same static bar as
 * index.html's boot screen, styled there, so the start-up reads as one calm frame instead of going blank.
 * No texts from i18n: they may not be ready yet, and the bar names the product in both languages.
 */
export function BootScreen() {
  return (
    <div className="boot">
      <img src="/icons/icon-192.png" alt="" />
      Kesher · קשר
    </div>
  );
}
