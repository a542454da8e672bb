/**
 * Jobs of several real kinds for the fault tests (issue 20: "50 jobs of several kinds"), each
 * started through the API as a user would, with no outside service but a stand-in model the test
 * runs: a scored run (`lab.task-run`: a rating task answered by the stand-in), a document's
 * learning (`doc.learn`), a learn-material export written into the database
 * (`export.learn_material`) and a notification push (`notification.push`). `check()` counts
 * what each job wrote, so an effect written twice or not at all is named.
 */
import { expect } from 'vitest';
import { docx, docxBody } from '../../../server/ai/parse/test-fixtures.js';
import type { SqlDb } from '../../../server/db/sql-db.js';
import { multipart, postForm } from '../business/helpers.js';
import type { ApiClient } from '../harness.js';
import type { ModelStandIn } from '../lab/model-standin.js';

/** learn-material rows each export writes (EXPORT_JOB_ROWS below it makes every export a job) */
export const MATERIALS = 3000;
/** active shops of type 4 each push reaches */
export const PUSH_SHOPS = 40;
/** questions of each scored run */
export const SAMPLES = 30;
/** the server env the kinds need (an export of MATERIALS rows runs as a job) */
export const MIXED_ENV = { EXPORT_JOB_ROWS: '100' };

export interface Mixed {
  runs: number[];
  docs: number[];
  exports: number[];
  pushes: number[];
}

/** The rows the kinds work on (shops, materials, a model server, a data set): written before any job starts. */
export async function prepareMixed(admin: ApiClient, db: SqlDb, model: ModelStandIn): Promise<{ serverId: number; datasetId: number }> {
  const shop = (await db.query<{ id: number }>(`INSERT INTO shop (name, type) VALUES ('Outage materials', 1) RETURNING id`)).rows[0].id;
  await db.query(
    `INSERT INTO learn_material (shop_id, subject, question, answer)
     SELECT $1, 'Subject ' || i, 'Question ' || i || '?', 'Answer ' || i FROM generate_series(1, $2) i`,
    [shop, MATERIALS],
  );
  await db.query(`INSERT INTO shop (name, type) SELECT 'Outage push ' || i, 4 FROM generate_series(1, $1) i`, [PUSH_SHOPS]);
  const server = await admin.ok('POST', 'config/model-server/create', { name: 'Outage stand-in', model: 'answer-outage', endpoint: model.baseUrl, timeout_ms: 30000 });
  const samples = Array.from({ length: SAMPLES }, (_, i) => ({ input: `Outage question ${i + 1}?`, expected: "The stand-in model's answer." }));
  const ds = await admin.ok('POST', 'rating-data-set/create', { name: 'Outage set', samples });
  return { serverId: server.id, datasetId: ds.id };
}

/** Scored runs and documents to learn (the longer kinds): their jobs are enqueued by the API. */
export async function startLong(admin: ApiClient, setup: { serverId: number; datasetId: number }, n: number, into: Mixed): Promise<void> {
  for (let i = 0; i < n; i++) {
    const t = await admin.ok('POST', 'rating-task/create', {
      name: `Outage run ${i}`,
      dataset_id: setup.datasetId,
      prompt: 'Answer.',
      model_server_id: setup.serverId,
      mode: 'immediate',
    });
    into.runs.push(t.id);
    const lines = Array.from({ length: 1500 }, (_, k) => `Section ${k + 1} of document ${i}: wash cold, dry flat, never bleach, iron low.`);
    const r = await postForm(admin, 'learn-doc/create', multipart({ name: `outage-${i}.docx`, data: await docx(docxBody(lines)) }));
    expect(r.body.code, r.body.msg).toBe(10000);
    into.docs.push(r.body.data.id);
  }
}

/** Exports and pushes (the shorter kinds). */
export async function startShort(admin: ApiClient, n: number, into: Mixed): Promise<void> {
  for (let i = 0; i < n; i++) {
    const e = await admin.post('learn-material/export', { format: 'csv' });
    expect(e.body.code, e.body.msg).toBe(10000);
    expect(e.body.data.status).toBe('queued');
    into.exports.push(e.body.data.export_id);
    const note = await admin.ok('POST', 'notification/add', { title: `Outage notice ${i}`, content: 'x', target_types: [4] });
    await admin.ok('POST', 'notification/push', { id: note.id });
    into.pushes.push(note.id);
  }
}

/** work_job ids of the mixed kinds' jobs (a run's continuations included). */
export async function mixedJobIds(db: SqlDb): Promise<number[]> {
  const r = await db.query<{ id: number }>(`SELECT id FROM work_job WHERE kind <> 'system.noop' ORDER BY id`);
  return r.rows.map((x) => Number(x.id));
}

/** What each kind wrote, counted; the names of what is not exactly once (empty: all good). */
export async function checkMixed(db: SqlDb, m: Mixed): Promise<string[]> {
  const bad: string[] = [];
  const q = async <T>(sql: string, p: unknown[]) => (await db.query<T>(sql, p)).rows[0];
  for (const id of m.runs) {
    const t = await q<{ status: string; n: number; d: number }>(
      `SELECT t.status, (SELECT count(*)::int FROM text_rating_task_result r WHERE r.task_id = t.id) AS n,
              (SELECT count(DISTINCT sample_index)::int FROM text_rating_task_result r WHERE r.task_id = t.id) AS d
         FROM text_rating_task t WHERE t.id = $1`,
      [id],
    );
    if (t.status !== 'finished' || t.n !== SAMPLES || t.d !== SAMPLES) bad.push(`run ${id}: ${JSON.stringify(t)}`);
  }
  for (const id of m.docs) {
    const d = await q<{ status: number; n: number; d: number }>(
      `SELECT l.status, (SELECT count(*)::int FROM knowledge_chunk c WHERE c.source_type = 'learn_doc' AND c.source_id = l.id) AS n,
              (SELECT count(DISTINCT chunk_index)::int FROM knowledge_chunk c WHERE c.source_type = 'learn_doc' AND c.source_id = l.id) AS d
         FROM learn_doc l WHERE l.id = $1`,
      [id],
    );
    if (d.status !== 1 || d.n < 1 || d.n !== d.d) bad.push(`document ${id}: ${JSON.stringify(d)}`);
  }
  for (const id of m.exports) {
    const e = await q<{ status: string; rows_total: number; rows_written: number; chunk_rows: number }>(
      `SELECT e.status, e.rows_total, e.rows_written, (SELECT COALESCE(sum(rows), 0)::int FROM learn_export_chunk c WHERE c.export_id = e.id) AS chunk_rows
         FROM learn_export e WHERE e.id = $1`,
      [id],
    );
    if (e.status !== 'done' || e.rows_total !== MATERIALS || e.rows_written !== MATERIALS || e.chunk_rows !== MATERIALS) bad.push(`export ${id}: ${JSON.stringify(e)}`);
  }
  for (const id of m.pushes) {
    const n = await q<{ status: number; push_quantity: number; n: number; d: number }>(
      `SELECT n.status, n.push_quantity, (SELECT count(*)::int FROM notification_delivery d WHERE d.notification_id = n.id) AS n,
              (SELECT count(DISTINCT shop_id)::int FROM notification_delivery d WHERE d.notification_id = n.id) AS d
         FROM notification n WHERE n.id = $1`,
      [id],
    );
    if (n.status !== 1 || n.push_quantity !== PUSH_SHOPS || n.n !== PUSH_SHOPS || n.d !== PUSH_SHOPS) bad.push(`push ${id}: ${JSON.stringify(n)}`);
  }
  return bad;
}
