/** A server with the demo data, an admin, an outsider and single-key clients for the lab tests. */
import { startServer, type ApiClient, type TestServer } from '../harness.js';

export interface LabFixtures {
  dataSetId: number;
  ratingDataSetId: number;
  assistantId: number;
  labDatasetId: number;
  conversationId: number;
  labRoleId: number;
  finishedTaskId: number;
}

export interface LabEnv {
  s: TestServer;
  admin: ApiClient;
  outsider: ApiClient;
  fx: LabFixtures;
  as(key: string): Promise<ApiClient>;
}

const one = async (s: TestServer, sql: string): Promise<number> => {
  const r = await s.db.query<{ id: number }>(sql);
  if (!r.rows[0]) throw new Error(`no demo row for: ${sql}`);
  return Number(r.rows[0].id);
};

/**
 * No workers by default: the route and rule tests compare table fingerprints, which a run
 * working in the background would change (runs are tested in runs.test.ts).
 */
export async function startLab(opts: { workers?: number } = {}): Promise<LabEnv> {
  const s = await startServer({ seedDemo: true, config: { workers: opts.workers ?? 0 } });
  const admin = await s.login();
  const outsider = await s.loginWithKeys(['admin_center.admin.permission.audit_logs']);
  const clients = new Map<string, Promise<ApiClient>>();
  const fx: LabFixtures = {
    dataSetId: await one(s, 'SELECT id FROM text_dataset ORDER BY id LIMIT 1'),
    ratingDataSetId: await one(s, 'SELECT id FROM text_rating_dataset ORDER BY id LIMIT 1'),
    assistantId: await one(s, 'SELECT id FROM chat_assistant ORDER BY id LIMIT 1'),
    labDatasetId: await one(s, 'SELECT id FROM lab_dataset ORDER BY id LIMIT 1'),
    conversationId: await one(s, 'SELECT id FROM lab_conversation ORDER BY id LIMIT 1'),
    labRoleId: await one(s, 'SELECT id FROM lab_role ORDER BY id LIMIT 1'),
    finishedTaskId: await one(s, "SELECT id FROM text_task WHERE status = 'finished' ORDER BY id LIMIT 1"),
  };
  return {
    s,
    admin,
    outsider,
    fx,
    as(key: string) {
      if (!clients.has(key)) clients.set(key, s.loginWithKeys([key]));
      return clients.get(key)!;
    },
  };
}
