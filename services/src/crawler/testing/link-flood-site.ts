import { startTestServer, type TestServer } from '../../outbound/testing/test-server.js';

/**
 * A hostile site for the crawler's bounds (issue 21 item 4): `linkPages` pages (`/` and `/links-1`…),
 * each with some text and `linksPerPage` distinct links — to the other link pages first, then to
 * `/item/<page>-<n>` pages that answer with a little text and no links. A crawl that keeps one record
 * per link it meets stores tens of thousands of them; a bounded one stores a few hundred.
 */
export interface LinkFloodSite extends TestServer {
  origin: string;
  /** The paths of the pages full of links. */
  linkPagePaths: string[];
}

export async function startLinkFloodSite(
  options: { linkPages?: number; linksPerPage?: number } = {},
): Promise<LinkFloodSite> {
  const linkPages = options.linkPages ?? 5;
  const linksPerPage = options.linksPerPage ?? 10_000;
  const linkPagePaths = Array.from({ length: linkPages }, (_unused, i) => (i === 0 ? '/' : `/links-${i}`));
  const paragraph = (topic: string) =>
    `<p>${topic}: fresh sourdough baked every morning, cakes to order, delivery across Tel Aviv on weekdays.</p>`;

  function linkPage(index: number): string {
    const others = linkPagePaths
      .filter((_path, i) => i !== index)
      .map((path) => `<li><a href="${path}">Section ${path}</a></li>`);
    const items = Array.from(
      { length: linksPerPage - others.length },
      (_unused, n) => `<li><a href="/item/${index}-${n}">Item ${index}-${n}</a></li>`,
    );
    return `<!doctype html><html lang="en"><head><title>Catalogue ${index}</title></head><body><main><h1>Catalogue ${index}</h1>${paragraph(`Catalogue ${index}`)}<ul>${others.join('')}${items.join('')}</ul></main></body></html>`;
  }

  const server = await startTestServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    const index = linkPagePaths.indexOf(path);
    let body: string | null = null;
    if (index >= 0) body = linkPage(index);
    else if (path.startsWith('/item/'))
      body = `<!doctype html><html lang="en"><head><title>Item ${path.slice(6)}</title></head><body><main><h1>Item ${path.slice(6)}</h1>${paragraph(`Item ${path.slice(6)}`)}</main></body></html>`;
    if (body === null) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  });
  return { ...server, origin: server.url(''), linkPagePaths };
}
