import { existsSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { startKesher } from './server';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

/** One real server for the browser suite; `npm run build -w client` must have run first. */
export default async function setup(project: TestProject) {
  if (!existsSync(new URL('../dist/index.html', import.meta.url))) throw new Error('client/dist is missing: run `npm run build -w client` first');
  const server = await startKesher();
  project.provide('baseUrl', server.baseUrl);
  return () => server.stop();
}
