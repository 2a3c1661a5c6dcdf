import pg from 'pg';

/**
 * A client of the test's own, connected even while the server is full: on a machine where several
 * suites share one Postgres, "too many clients" (53300) is a moment's state, so it is tried again for up
 * to `timeoutMs` rather than failing a check that has nothing to do with it.
 */
export async function connectClient(connectionString: string, timeoutMs = 30_000): Promise<pg.Client> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const client = new pg.Client({ connectionString });
    try {
      await client.connect();
      return client;
    } catch (error) {
      await client.end().catch(() => {});
      if ((error as { code?: string }).code !== '53300' || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}
