import { z } from 'zod';

/**
 * Configuration from the environment. With nothing set, Kesher runs embedded: PGlite under DATA_DIR,
 * the in-process bus, the built-in engines. Each production part is switched on by its own variable.
 */
export const ConfigSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8000),
  HOST: z.string().default('127.0.0.1'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  KAFKA_BROKERS: z.string().optional(),
  EVENTSTORE_URL: z.string().optional(),
  NODE_ENV: z.string().default('development'),
  /** Events per projection transaction; larger is faster to rebuild, smaller keeps transactions short. */
  PROJECTOR_BATCH_SIZE: z.coerce.number().int().positive().default(500),
});
export type Config = z.infer<typeof ConfigSchema>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) throw new Error(`invalid configuration:\n${z.prettifyError(parsed.error)}`);
  return parsed.data;
}
