/**
 * Prompt versions (issue 21, docs/ai.md "Prompt versions"): every saved prompt is a version — the
 * database's trigger on `prompt` numbers it (migration 0034), whatever wrote it — and the API that
 * saved it stamps its author. `GET prompt/versions?prompt_id=` lists a prompt's versions, newest
 * first; `GET prompt/version-options` gives the task forms their picker. A test or rating task may
 * pin one (`prompt_version_id`): its runs use that text even after the prompt is edited.
 * `GET prompt/version-diff?prompt_id=&from=&to=` is the line diff of two of its versions (by
 * number; default: the newest against the one before it), the page promptManagement/versions/:id.
 */
import { Type, type Static } from '@sinclair/typebox';
import type { Queryable } from '../../db/db.js';
import { route, type RouteDef, type SessionUser } from '../../http/route.js';
import { invalid } from '../../http/errors.js';
import { Id } from '../engine/schemas.js';
import { LK, allTaskKeys } from '../lab/keys.js';
import { SK } from '../sessions/keys.js';
import { lineDiff } from './line-diff.js';

/** Stamps the author on the prompt's newest version when the trigger left it blank (this save's). */
export async function stampAuthor(db: Queryable, promptId: number, user: SessionUser | null | undefined): Promise<void> {
  if (!user) return;
  await db.query(
    `UPDATE prompt_version SET author_id = $2, author = $3
      WHERE prompt_id = $1 AND author = '' AND version = (SELECT max(version) FROM prompt_version WHERE prompt_id = $1)`,
    [promptId, user.id, user.email.slice(0, 200)],
  );
}

/** The text a pinned version holds (null: no such version). */
export async function versionText(db: Queryable, id: number): Promise<{ content: string; model_server_id: number | null } | null> {
  const r = await db.query<{ content: string; model_server_id: number | null }>(`SELECT content, model_server_id FROM prompt_version WHERE id = $1`, [id]);
  return r.rows[0] ?? null;
}

const version = Type.Object({
  id: Type.Integer(),
  prompt_id: Type.Union([Type.Integer(), Type.Null()]),
  version: Type.Integer(),
  name: Type.String(),
  content: Type.String(),
  model_server_id: Type.Union([Type.Integer(), Type.Null()]),
  author: Type.String(),
  created_at: Type.String(),
  /** tasks that pin it */
  pinned_by: Type.Integer(),
});

const COLS = `v.id, v.prompt_id, v.version, v.name, v.content, v.model_server_id, v.author,
  to_char(v.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS created_at,
  ((SELECT count(*) FROM text_task t WHERE t.prompt_version_id = v.id) + (SELECT count(*) FROM text_rating_task t WHERE t.prompt_version_id = v.id))::int AS pinned_by`;

export const promptVersionRoutes: RouteDef[] = [
  route({
    method: 'GET',
    path: 'prompt/versions',
    access: { permission: [SK.prompt, SK.playground, ...allTaskKeys(LK.testTask), ...allTaskKeys(LK.ratingTask)] },
    summary: "A prompt's saved versions, newest first: number, text, model server, author, time, how many tasks pin it",
    query: Type.Object({ prompt_id: Id }, { additionalProperties: false }),
    reply: Type.Array(version),
    handler: async (ctx) => (await ctx.db.query<Static<typeof version>>(`SELECT ${COLS} FROM prompt_version v WHERE v.prompt_id = $1 ORDER BY v.version DESC LIMIT 500`, [ctx.query.prompt_id])).rows,
  }),
  route({
    method: 'GET',
    path: 'prompt/version-options',
    access: { permission: [...allTaskKeys(LK.testTask), ...allTaskKeys(LK.ratingTask), SK.prompt] },
    summary: 'Prompt versions for the task forms: [{ id, label }] ("name v3 · author · time"), newest first',
    query: Type.Object({}, { additionalProperties: false }),
    reply: Type.Array(Type.Object({ id: Type.Integer(), label: Type.String() })),
    handler: async (ctx) =>
      (
        await ctx.db.query<{ id: number; label: string }>(
          `SELECT v.id, v.name || ' v' || v.version || CASE WHEN v.author <> '' THEN ' · ' || v.author ELSE '' END
                  || ' · ' || to_char(v.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') AS label
             FROM prompt_version v ORDER BY v.id DESC LIMIT 1000`,
        )
      ).rows,
  }),
  route({
    method: 'GET',
    path: 'prompt/version-diff',
    access: { permission: [SK.promptVersions, SK.prompt, ...allTaskKeys(LK.testTask), ...allTaskKeys(LK.ratingTask)] },
    summary: 'The line diff of two versions of a prompt (by number; default: the newest against the one before it)',
    query: Type.Object(
      { prompt_id: Id, from: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000000 })), to: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000000 })) },
      { additionalProperties: false },
    ),
    reply: Type.Object({
      prompt_id: Type.Integer(),
      name: Type.String(),
      from: Type.Integer(),
      to: Type.Integer(),
      newest: Type.Integer(),
      added: Type.Integer(),
      removed: Type.Integer(),
      total: Type.Integer(),
      list: Type.Array(
        Type.Object({
          line: Type.Integer(),
          op: Type.String(),
          old_no: Type.Union([Type.Integer(), Type.Null()]),
          new_no: Type.Union([Type.Integer(), Type.Null()]),
          text: Type.String(),
        }),
      ),
    }),
    handler: async (ctx) => {
      const q = ctx.query;
      const newest = (await ctx.db.query<{ v: number | null }>(`SELECT max(version) AS v FROM prompt_version WHERE prompt_id = $1`, [q.prompt_id])).rows[0]?.v;
      if (!newest) throw invalid([{ field: 'prompt_id', message: `prompt ${q.prompt_id} has no versions / 该提示词没有版本` }]);
      const to = q.to ?? newest;
      const from = q.from ?? Math.max(1, to - 1);
      const get = async (v: number, field: string) => {
        const r = await ctx.db.query<{ content: string; name: string }>(`SELECT content, name FROM prompt_version WHERE prompt_id = $1 AND version = $2`, [q.prompt_id, v]);
        if (!r.rows[0]) throw invalid([{ field, message: `version ${v} does not exist (1 to ${newest}) / 版本 ${v} 不存在（1 至 ${newest}）` }]);
        return r.rows[0];
      };
      const a = await get(from, 'from');
      const b = await get(to, 'to');
      const list = lineDiff(a.content, b.content).map((l, i) => ({ line: i + 1, ...l }));
      const count = (op: string) => list.filter((l) => l.op === op).length;
      return { prompt_id: q.prompt_id, name: b.name, from, to, newest, added: count('added'), removed: count('removed'), total: list.length, list };
    },
  }),
];
