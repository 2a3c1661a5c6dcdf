/**
 * The build-time edits that turn the app shell (dist/index.html) plus a page's rendered markup into a
 * prerendered landing page (scripts/prerender.tsx). Plain string work, kept apart so it can be tested.
 *
 * What a first-time visitor on a phone waits for before the first paint is then the HTML document alone:
 * the stylesheet is inside it, and the app's code is asked for only once the page has loaded.
 */

/** The app's module script and its preloads, which the shell has in <head>. */
const APP_TAGS = /<script type="module"[^>]*><\/script>\s*|<link rel="modulepreload"[^>]*>\s*/g;
/** The build's stylesheets, linked from the shell's <head>. */
const STYLESHEET = /<link rel="stylesheet"[^>]*href="([^"]+\.css)"[^>]*>/g;
/**
 * React's server renderer puts a `<link rel="preload" as="image">` for each <img> at the start of the
 * markup. The image (the header logo) is in the HTML right after it anyway, so the hint only adds an
 * early request, and it is a node the app's own render does not have, so hydration would trip over it.
 */
const IMAGE_PRELOAD = /<link rel="preload" as="image"[^>]*\/?>/g;

export interface AppTags {
  entry: string;
  preloads: string[];
}

/** The shell without its app tags, and their URLs (the entry module and the modules it preloads). */
export function takeAppTags(shell: string): { html: string; app: AppTags } {
  const tags = shell.match(APP_TAGS)?.map((t) => t.trim()) ?? [];
  const url = (tag: string) => /(?:src|href)="([^"]+)"/.exec(tag)![1]!;
  const entry = tags.find((t) => t.startsWith('<script'));
  if (!entry) throw new Error('dist/index.html has no module script');
  return {
    html: shell.replace(APP_TAGS, ''),
    app: { entry: url(entry), preloads: tags.filter((t) => !t.startsWith('<script')).map(url) },
  };
}

/**
 * Puts the stylesheets' text into the page. The whole stylesheet is a few KB compressed, less than the
 * round trip a separate render-blocking request costs on a phone network; the app, once it takes over,
 * finds every rule already there.
 */
export function inlineStylesheets(html: string, read: (href: string) => string): string {
  // A function replacement, so `$` in the CSS is never read as a replacement pattern.
  return html.replace(STYLESHEET, (_tag, href: string) => {
    const css = read(href).trim();
    if (/<\/style/i.test(css)) throw new Error(`${href} cannot be inlined: it contains </style`);
    return `<style>${css}</style>`;
  });
}

export const withoutImagePreloads = (markup: string) => markup.replace(IMAGE_PRELOAD, '');

/**
 * The inline script after the page's markup. Visitors who would not see this markup (signed in, or
 * reading English) get the plain boot screen back before the first paint, so nothing flashes, and the
 * app starts at once. For everyone else the page is complete as HTML (its links are plain links), so the
 * app's code is requested only once the page has loaded and its content has painted, when the browser
 * is idle (or at the first touch or key press, if that comes sooner): its download and start-up then
 * never compete with the page's own first paint on a slow phone. Where the paint timing API is missing,
 * two animation frames stand in for "has painted".
 */
export function bootScript(bootHtml: string, app: AppTags): string {
  return `<script>(function(){var pre=false;try{var l=localStorage.getItem('language');if(localStorage.getItem('firebaseToken')||(l&&l!=='he')){document.getElementById('root').innerHTML=${JSON.stringify(bootHtml)};}else{pre=true;document.documentElement.dataset.prerendered='1';}}catch(e){}
var early=['pointerdown','touchstart','keydown'],started=false;
function start(){if(started)return;started=true;early.forEach(function(t){removeEventListener(t,start,true);});
${JSON.stringify(app.preloads)}.forEach(function(h){var k=document.createElement('link');k.rel='modulepreload';k.crossOrigin='';k.href=h;document.head.appendChild(k);});var s=document.createElement('script');s.type='module';s.crossOrigin='';s.src=${JSON.stringify(app.entry)};document.head.appendChild(s);}
if(!pre)return start();
early.forEach(function(t){addEventListener(t,start,{capture:true,passive:true});});
function idle(){if(window.requestIdleCallback)requestIdleCallback(start,{timeout:2000});else setTimeout(start,0);}
function painted(then){var P=window.PerformanceObserver;if(!P||!P.supportedEntryTypes||P.supportedEntryTypes.indexOf('paint')<0)return requestAnimationFrame(function(){requestAnimationFrame(then);});
new P(function(list,observer){if(list.getEntriesByName('first-contentful-paint').length){observer.disconnect();then();}}).observe({type:'paint',buffered:true});}
function loaded(){painted(idle);}
if(document.readyState==='complete')loaded();else addEventListener('load',loaded);})();</script>`;
}
