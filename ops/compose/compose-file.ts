import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

/** The slice of a Compose service this check reads. */
export interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[];
  environment?: Record<string, string | number | boolean | null>;
  ports?: string[];
  volumes?: string[];
  depends_on?: Record<string, unknown> | string[];
}

export interface ComposeFile {
  services: Record<string, ComposeService>;
}

/** docker-compose.yml as Compose reads it: YAML with merge keys (`<<: *kesher`). */
export function readComposeFile(repoRoot: string): ComposeFile {
  return parse(readFileSync(join(repoRoot, 'docker-compose.yml'), 'utf8'), { merge: true }) as ComposeFile;
}

/** Kesher's own services: the ones built from the repository's image (the others are infrastructure). */
export const kesherServices = (file: ComposeFile) =>
  Object.entries(file.services).filter(([, service]) => service.build !== undefined);

export class MissingVariableError extends Error {}

/**
 * Compose's variable substitution, as the Compose specification defines it: `$$` is a `$`, `${NAME}` and
 * `$NAME` the variable, `${NAME:-default}` / `${NAME-default}` a default when unset (or, with `:`,
 * empty), `${NAME:?message}` / `${NAME?message}` an error with the message when unset (or empty).
 */
export function interpolate(text: string, variables: Record<string, string | undefined>): string {
  return text.replace(
    /\$(\$|\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?)([-?])([^}]*))?\}|([A-Za-z_][A-Za-z0-9_]*))/g,
    (_, escaped: string, name?: string, colon?: string, operator?: string, argument?: string, bare?: string) => {
      if (escaped === '$') return '$';
      const variable = name ?? bare!;
      const value = variables[variable];
      const missing = value === undefined || (colon === ':' && value === '');
      if (operator === '-') return missing ? argument! : value!;
      if (operator === '?') {
        if (missing) throw new MissingVariableError(`${variable}: ${argument}`);
        return value!;
      }
      return value ?? '';
    },
  );
}

/** A service's environment with Compose's substitution applied (every value a string, as a process sees it). */
export function environmentOf(
  service: ComposeService,
  variables: Record<string, string | undefined>,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(service.environment ?? {}).map(([key, value]) => [key, interpolate(String(value ?? ''), variables)]),
  );
}

/** The `ENV` of the image's last stage: what every container starts with, before its service's environment. */
export function imageEnvironment(repoRoot: string): Record<string, string> {
  const dockerfile = readFileSync(join(repoRoot, 'ops/docker/Dockerfile'), 'utf8');
  const lastStage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
  return Object.fromEntries(
    [...lastStage.matchAll(/^ENV (.+)$/gm)].flatMap(([, pairs]) =>
      pairs!.split(/\s+/).map((pair) => pair.split('=') as [string, string]),
    ),
  );
}
