import { createHash } from 'node:crypto';
import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

/** OpenAPI generated from the routes' zod schemas: JSON at /api/v1/docs/openapi.json, a reading page at /api/v1/docs. */
export const openapiPlugin = fp(async (app: FastifyInstance) => {
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Kesher API',
        version: '1.0.0',
        description: 'Owner and visitor API of Kesher. Errors are `{ "detail": … }`.',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
  });

  app.get('/api/v1/docs/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  app.get('/api/v1/docs', { schema: { hide: true } }, async (_request, reply) => {
    const spec = app.swagger() as { paths?: Record<string, Record<string, { summary?: string; tags?: string[] }>> };
    const rows = Object.entries(spec.paths ?? {})
      .flatMap(([path, operations]) =>
        Object.entries(operations).map(
          ([method, op]) =>
            `<tr><td><code>${method.toUpperCase()}</code></td><td><code>${escapeHtml(path)}</code></td><td>${escapeHtml(op.summary ?? '')}</td></tr>`,
        ),
      )
      .join('');
    reply.type('text/html; charset=utf-8');
    reply.header('content-security-policy', DOCS_POLICY);
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Kesher API</title>
<style>${DOCS_STYLE}</style></head>
<body><h1>Kesher API</h1><p>Machine-readable: <a href="/api/v1/docs/openapi.json">openapi.json</a>. Authenticate with <code>Authorization: Bearer &lt;access_token&gt;</code>.</p>
<table>${rows}</table></body></html>`;
  });
});

const DOCS_STYLE =
  'body{font:15px system-ui;margin:2rem;max-width:70rem}td{padding:.25rem .75rem;border-bottom:1px solid #ddd}';
/** The reading page runs no script and loads nothing; its one stylesheet is allowed by its hash. */
const DOCS_POLICY = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(DOCS_STYLE).digest('base64')}'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'`;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
