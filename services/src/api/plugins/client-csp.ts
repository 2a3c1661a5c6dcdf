import { createHash } from 'node:crypto';
import { Parser } from 'htmlparser2';

/**
 * The Content-Security-Policy of the client build's pages. The owner's session token lives in
 * localStorage, so a script injected into any page could take it: scripts run only from this origin, or
 * inline when their exact text was in the built HTML (its sha-256 is listed — the prerendered landing
 * pages start the app from a small inline script). No 'unsafe-inline' and no 'unsafe-eval' for scripts.
 *
 * Styles allow inline: the prerendered pages inline their stylesheet and carry style attributes, and
 * React sets styles at run time; CSS cannot run script, so this is not a way to the token.
 *
 * Google Identity Services (sign-in, when configured) loads its script, style and frame from
 * accounts.google.com. In the owner app the widget preview shows the owner's own website, whatever its
 * address, in a frame — and first asks with an invisible <object> whether the site refuses frames — so
 * frames and objects may come from any http(s) origin there (no browser runs plugins any more: an object
 * of a web page is a frame by another name). The visitor pages frame nothing and embed no objects.
 * Images may come from any https origin (profile photos, pictures in answers). Only the embed page may
 * itself be framed by other sites (it is the website widget's panel).
 */
const GOOGLE = 'https://accounts.google.com';

/** The sha-256 source expression of every inline script (no `src`) in `html`. */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  let inScript = false;
  let text = '';
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name !== 'script' || 'src' in attributes) return;
        inScript = true;
        text = '';
      },
      ontext(chunk) {
        if (inScript) text += chunk;
      },
      onclosetag(name) {
        if (name !== 'script' || !inScript) return;
        inScript = false;
        hashes.push(`'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`);
      },
    },
    { decodeEntities: false },
  );
  parser.write(html);
  parser.end();
  return [...new Set(hashes)];
}

export interface PagePolicyOptions {
  /** The sha-256 sources of the page's inline scripts (inlineScriptHashes). */
  scriptHashes: readonly string[];
  /** The owner app (it previews other sites) or the visitor pages (public chat, shared link, embed). */
  app: 'owner' | 'visitor';
  /** Whether other sites may frame the page (the embed page only). */
  embeddable: boolean;
}

export function pagePolicy(options: PagePolicyOptions): string {
  const owner = options.app === 'owner';
  return [
    "default-src 'self'",
    `script-src 'self' ${[...options.scriptHashes, `${GOOGLE}/gsi/client`].join(' ')}`,
    `style-src 'self' 'unsafe-inline' ${GOOGLE}/gsi/style`,
    "img-src 'self' data: blob: https:",
    "font-src 'self' data:",
    `connect-src 'self' ${GOOGLE}/gsi/`,
    owner ? "frame-src 'self' https: http:" : "frame-src 'self'",
    "worker-src 'self'",
    "manifest-src 'self'",
    "media-src 'self' blob:",
    owner ? "object-src 'self' https: http:" : "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    `frame-ancestors ${options.embeddable ? '*' : "'self'"}`,
  ].join('; ');
}
