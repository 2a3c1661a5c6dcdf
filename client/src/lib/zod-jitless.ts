import { z } from 'zod';

/**
 * zod parses without compiling code. Its object schemas otherwise build a faster parser with
 * `new Function`, which the Content-Security-Policy (script-src without 'unsafe-eval') refuses: zod
 * catches the refusal and carries on, but the browser still reports a violation on every page. The
 * choice is read when a schema is created, so every entry imports this module first, before anything
 * that defines a schema (the contracts, the API client).
 */
z.config({ jitless: true });
