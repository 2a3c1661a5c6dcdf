import { existsSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { startKesher } from './server';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    /** Where the server keeps the mail it sends (DATA_DIR/outbox). */
    outboxDir: string;
  }
}

/** One real server for the browser suite; `npm run build -w client` must have run first. */
export default async function setup(project: TestProject) {
  if (!existsSync(new URL('../dist/index.html', import.meta.url)))
    throw new Error('client/dist is missing: run `npm run build -w client` first');
  const server = await startKesher();
  project.provide('baseUrl', server.baseUrl);
  project.provide('outboxDir', `${server.dataDir}/outbox`);
  return async () => {
    // The server's warnings and errors, so a failing browser test's CI output says what the server saw.
    const said = server
      .output()
      .trim()
      .split('\n')
      .filter((line) => line && !line.startsWith('Kesher is running') && !line.startsWith('  '));
    if (said.length)
      console.log(
        `The e2e server said (last ${Math.min(said.length, 40)} of ${said.length} lines):\n${said.slice(-40).join('\n')}`,
      );
    await server.stop();
  };
}
