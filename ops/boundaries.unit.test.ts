import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The boundary rules of eslint.config.js, run through ESLint's own API on small files that exist only in
 * memory, placed at paths inside the tree. Each deliberate cross-boundary import must be reported by the
 * boundary rule, and its allowed twin must not be: a config that stopped matching the tree (a renamed
 * folder, a resolver that no longer finds `.js` → `.ts`) would let everything through, and fails here.
 */
const root = fileURLToPath(new URL('..', import.meta.url));
let eslint: ESLint;

beforeAll(async () => {
  eslint = new ESLint({ cwd: root });
  // The first lint loads the config, the plugins and the TypeScript resolver: seconds on a busy machine.
  await eslint.lintText('export {};\n', { filePath: 'services/src/mail/boundary-probe.ts' });
});

/** The boundary messages (`boundaries/…`) ESLint reports for `code` placed at `filePath`. */
async function boundaryErrors(filePath: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId?.startsWith('boundaries/'))
    .map((message) => ({ rule: message.ruleId, line: message.line }));
}

describe('module boundaries (eslint.config.js)', () => {
  it("refuses a module importing another module's insides, and lets it import that module's index.ts", async () => {
    const probe = 'services/src/chat/boundary-probe.ts';
    expect(
      await boundaryErrors(
        probe,
        `import { createSmtpMailer } from '../mail/smtp.mailer.js';\nvoid createSmtpMailer;\n`,
      ),
    ).toEqual([{ rule: 'boundaries/dependencies', line: 1 }]);
    expect(
      await boundaryErrors(probe, `import { createMailer } from '../mail/index.js';\nvoid createMailer;\n`),
    ).toEqual([]);
  });

  it('lets a module use its own files and the shared platform kernel', async () => {
    const probe = 'services/src/mail/boundary-probe.ts';
    const code = `import { createSmtpMailer } from './smtp.mailer.js';\nimport type { Sql } from '../platform/sql/sql.port.js';\nexport type Probe = [typeof createSmtpMailer, Sql];\n`;
    expect(await boundaryErrors(probe, code)).toEqual([]);
  });

  it('refuses a decider doing I/O: the domain imports only the decider kernel of platform', async () => {
    const probe = 'services/src/domain/thread/boundary-probe.ts';
    expect(
      await boundaryErrors(probe, `import type { Sql } from '../../platform/sql/sql.port.js';\nexport type P = Sql;\n`),
    ).toEqual([{ rule: 'boundaries/dependencies', line: 1 }]);
    expect(
      await boundaryErrors(
        probe,
        `import { DomainError } from '../../platform/commands/decider.js';\nvoid DomainError;\n`,
      ),
    ).toEqual([]);
  });

  it('refuses platform importing a feature module, and a module importing the HTTP facade', async () => {
    expect(
      await boundaryErrors(
        'services/src/platform/config/boundary-probe.ts',
        `import { createMailer } from '../../mail/index.js';\nvoid createMailer;\n`,
      ),
    ).toEqual([{ rule: 'boundaries/dependencies', line: 1 }]);
    expect(
      await boundaryErrors(
        'services/src/billing/boundary-probe.ts',
        `import { ApiError } from '../api/api-error.js';\nvoid ApiError;\n`,
      ),
    ).toEqual([{ rule: 'boundaries/dependencies', line: 1 }]);
  });

  it('refuses projections importing services, and contracts importing anything of ours', async () => {
    expect(
      await boundaryErrors(
        'projections/src/threads/boundary-probe.ts',
        `import type { Sql } from '@kesher/services/platform/sql/sql.port';\nexport type P = Sql;\n`,
      ),
    ).toEqual([{ rule: 'boundaries/dependencies', line: 1 }]);
    expect(
      await boundaryErrors(
        'contracts/src/rules/boundary-probe.ts',
        `import { threadQueries } from '@kesher/projections/threads/threads.queries';\nvoid threadQueries;\n`,
      ),
    ).toEqual([{ rule: 'boundaries/dependencies', line: 1 }]);
  });

  it('refuses a client feature importing another feature; the app shell composes them', async () => {
    const code = `import { ChannelBadge } from '@/features/inbox/components/conversation-controls';\nvoid ChannelBadge;\n`;
    expect(await boundaryErrors('client/src/features/billing/boundary-probe.tsx', code)).toEqual([
      { rule: 'boundaries/dependencies', line: 1 },
    ]);
    expect(await boundaryErrors('client/src/app/routes/boundary-probe.tsx', code)).toEqual([]);
  });

  it('lets tests reach into any module', async () => {
    const code = `import { createSmtpMailer } from '../mail/smtp.mailer.js';\nvoid createSmtpMailer;\n`;
    expect(await boundaryErrors('services/src/chat/boundary-probe.unit.test.ts', code)).toEqual([]);
  });
});
