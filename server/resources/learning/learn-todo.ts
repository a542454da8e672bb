/**
 * The learning to-do preview (`intelligent_text/learn/todo-preview`, issue 14): what of the
 * learning loop waits for a person, in one list — learning materials not yet handled (status 0),
 * auto-learned policy and product candidates waiting for review (status 0), and documents whose
 * learning failed (status 2, with the reason). Each row names the page where it is handled.
 * Newest first; filter by kind and shop. One UNION ALL over the four tables' status indexes.
 */
import { Type } from '@sinclair/typebox';
import { pageReply } from '../../http/list.js';
import { route } from '../../http/route.js';
import { Nullable, StringEnum } from '../../http/typebox.js';
import { Id } from '../engine/schemas.js';
import { K } from '../keys.js';

export const TODO_KINDS = ['material', 'policy_candidate', 'product_candidate', 'doc_failed'] as const;
type Kind = (typeof TODO_KINDS)[number];

/** Each kind: its rows as (kind, id, shop_id, title, detail, created_at), each naming its columns (any one may stand alone). */
const SOURCES: Record<Kind, string> = {
  material: `SELECT 'material' AS kind, id, shop_id, subject AS title, left(question, 200) AS detail, created_at FROM learn_material WHERE status = 0`,
  policy_candidate: `SELECT 'policy_candidate' AS kind, id, shop_id, left(question, 300) AS title, left(answer, 200) AS detail, created_at FROM learn_policy WHERE status = 0`,
  product_candidate: `SELECT 'product_candidate' AS kind, id, shop_id, product_title AS title, left(content, 200) AS detail, created_at FROM learn_policy_product WHERE status = 0`,
  doc_failed: `SELECT 'doc_failed' AS kind, id, shop_id, name AS title, error AS detail, created_at FROM learn_doc WHERE status = 2`,
};

const TODO_PAGE = { page: 1, page_size: 10 };

export const learnTodoRoute = route({
  method: 'GET',
  path: 'learn-todo/list',
  access: { permission: K.todoPreview },
  summary: 'Learning work waiting for a person: unhandled materials, policy and product candidates to review, documents that failed to learn (newest first)',
  query: Type.Object(
    {
      page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000, default: TODO_PAGE.page })),
      page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: TODO_PAGE.page_size })),
      kind: Type.Optional(StringEnum(TODO_KINDS)),
      shop_id: Type.Optional(Id),
    },
    { additionalProperties: false },
  ),
  reply: pageReply(
    Type.Object({
      key: Type.String(),
      kind: Type.String(),
      id: Type.Integer(),
      shop_id: Nullable(Type.Integer()),
      shop_name: Nullable(Type.String()),
      title: Type.String(),
      detail: Type.String(),
      created_at: Type.String(),
    }),
    { counts: { type: 'object', additionalProperties: { type: 'integer' } } },
  ),
  handler: async ({ db, query }) => {
    // validation fills in the defaults; TypeBox still types the two as optional
    const q = { ...TODO_PAGE, ...query };
    const params: unknown[] = [];
    const shop = q.shop_id ? ` AND shop_id = $${params.push(q.shop_id)}` : '';
    const kinds = q.kind ? [q.kind] : TODO_KINDS;
    const union = kinds.map((k) => `${SOURCES[k]}${shop}`).join(' UNION ALL ');
    // counts per kind for the whole to-do (the filter's badge numbers), then the page
    const counts = await db.query<{ kind: Kind; n: number }>(
      `SELECT kind, count(*)::int AS n FROM (${TODO_KINDS.map((k) => `${SOURCES[k]}${shop}`).join(' UNION ALL ')}) u GROUP BY kind`,
      params,
    );
    const byKind = Object.fromEntries(TODO_KINDS.map((k) => [k, counts.rows.find((r) => r.kind === k)?.n ?? 0]));
    let total = 0;
    for (const k of kinds) total += byKind[k];
    const rows = await db.query<{ kind: string; id: number; shop_id: number | null; shop_name: string | null; title: string; detail: string; created_at: Date }>(
      `SELECT u.kind, u.id, u.shop_id, s.name AS shop_name, u.title, u.detail, u.created_at
         FROM (${union}) u LEFT JOIN shop s ON s.id = u.shop_id
        ORDER BY u.created_at DESC, u.kind, u.id DESC
        LIMIT ${q.page_size} OFFSET ${(q.page - 1) * q.page_size}`,
      params,
    );
    return {
      list: rows.rows.map((r) => ({ ...r, key: `${r.kind}-${r.id}`, created_at: new Date(r.created_at).toISOString() })),
      total,
      page: q.page,
      page_size: q.page_size,
      counts: byKind,
    };
  },
});
