import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '@kesher/services/platform/config/config';
import { repoRoot } from '@kesher/services/testing/processes';
import { describe, expect, it } from 'vitest';
import {
  environmentOf,
  imageEnvironment,
  interpolate,
  kesherServices,
  MissingVariableError,
  readComposeFile,
} from './compose-file.js';

const compose = readComposeFile(repoRoot);
const dockerfile = readFileSync(join(repoRoot, 'ops/docker/Dockerfile'), 'utf8');
const INFRASTRUCTURE = ['eventstore', 'kafka', 'postgres'];
const secret = () => randomBytes(36).toString('base64url');

/**
 * What can be known of the production topology without starting it: every command is a real composition
 * root in the image's own form, every service's configuration loads as production demands, nothing is
 * promised that does not exist. `production-topology.compose.test.ts` then starts it (ops/compose-check.sh).
 */
describe('docker-compose.yml, read as Compose reads it', () => {
  it('runs each Kesher service as `node --import tsx <composition root>`, the image’s own form, on an entry that exists', () => {
    const services = kesherServices(compose);
    expect(services.map(([name]) => name).sort()).toEqual(['api', 'projector', 'relay', 'workers']);
    for (const [name, service] of services) {
      const [node, flag, loader, entry, ...rest] = service.command ?? [];
      expect([node, flag, loader, rest], name).toEqual(['node', '--import', 'tsx', []]);
      expect(entry, name).toBe(`services/src/main/${name}.main.ts`);
      expect(existsSync(join(repoRoot, entry!)), entry).toBe(true);
    }
    expect(dockerfile).toContain('CMD ["node", "--import", "tsx", "services/src/main/api.main.ts"]');
  });

  it('refuses to start without AUTH_SECRET, and with it every service’s production configuration loads', () => {
    for (const [name, service] of kesherServices(compose)) {
      expect(() => environmentOf(service, {}), name).toThrow(MissingVariableError);
      expect(() => environmentOf(service, {}), name).toThrow(/AUTH_SECRET/);
      const environment = { ...imageEnvironment(repoRoot), ...environmentOf(service, { AUTH_SECRET: secret() }) };
      const config = loadConfig(environment);
      expect(config.NODE_ENV, name).toBe('production');
      expect(config.DATABASE_URL && config.KAFKA_BROKERS && config.EVENTSTORE_URL, name).toBeTruthy();
    }
  });

  it('has no web server beside the api: the image carries the built client, which the api serves', () => {
    const others = Object.entries(compose.services).filter(([, service]) => service.build === undefined);
    expect(others.map(([name]) => name).sort()).toEqual(INFRASTRUCTURE);
    expect(dockerfile).toMatch(/COPY --from=build \/app\/client\/dist client\/dist/);
    // Only the api is reachable from outside; the infrastructure and the other roles stay on the network.
    expect(
      Object.entries(compose.services)
        .filter(([, service]) => service.ports?.length)
        .map(([name]) => name),
    ).toEqual(['api']);
  });

  it('builds on Node 22 LTS', () => {
    expect([...dockerfile.matchAll(/^FROM (\S+)/gm)].map(([, image]) => image)).toEqual([
      'node:22-bookworm-slim',
      'node:22-bookworm-slim',
    ]);
  });

  it('substitutes variables as Compose does', () => {
    expect(interpolate('a$$b ${X:-d} ${Y-e} ${Z} $X', { X: '', Y: '', Z: 'z' })).toBe('a$b d  z ');
    expect(() => interpolate('${X?gone}', {})).toThrow('X: gone');
    expect(interpolate('${X?gone}', { X: '' })).toBe('');
  });
});
