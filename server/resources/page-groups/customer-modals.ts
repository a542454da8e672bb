/**
 * The customer list's modals (spec section 2 "customer list config, download, … note …
 * modals"; docs/modules/page-groups.md "Issue 26"):
 * - config: `GET customer/config`, `POST customer/config/update` (tier, account manager, invoice
 *   e-mail, notice language; one row per customer, made on the first save);
 * - note: `GET customer/note/list`, `POST customer/note/create`, `POST customer/note/delete`;
 * - download: `POST customer/export`, the filtered customers as a CSV file of the chosen columns.
 * Writes are audited (`config`, `note`, `export` on `merchant_user`).
 */
import { Readable } from 'node:stream';
import { Type, type Static } from '@sinclair/typebox';
import type { Queryable } from '../../db/db.js';
import { invalid, notFound } from '../../http/errors.js';
import { requestLang } from '../../http/lang.js';
import { route, type RouteDef } from '../../http/route.js';
import { FileReply, IdReply, Nullable, StringEnum } from '../../http/typebox.js';
import { inRawTx } from '../engine/raw.js';
import { Id, idQuery } from '../engine/schemas.js';
import { check } from '../engine/validate.js';
import { csvCell } from '../learning/learn-export-file.js';
import { dateTime, int, nint, nstr, PG, str } from './keys.js';

const TIERS = ['standard', 'ka', 'strategic'] as const;
const LANGS = ['zh-CN', 'en-US'] as const;
const configReply = Type.Object({
  user_id: int,
  name: str,
  email: str,
  tier: str,
  account_manager: str,
  invoice_email: str,
  notice_language: str,
  updated_at: Nullable(dateTime),
});
type Config = Static<typeof configReply>;

async function customerExists(db: Queryable, id: number, field: string): Promise<void> {
  const r = await db.query(`SELECT 1 FROM merchant_user WHERE id = $1`, [id]);
  if (!r.rows.length) throw invalid([{ field, message: `customer ${id} does not exist / 客户不存在` }]);
}

/** The columns a download may hold, with their headers in both languages (the customer list's column titles). */
export const EXPORT_COLUMNS: Record<string, { sql: string; en: string; zh: string }> = {
  id: { sql: 't.id', en: 'ID', zh: 'ID' },
  name: { sql: 't.name', en: 'Customer name', zh: '客户名称' },
  email: { sql: 't.email', en: 'Email', zh: '邮箱' },
  phone: { sql: "coalesce(t.phone, '')", en: 'Phone', zh: '电话' },
  country_code: { sql: 't.country_code', en: 'Country', zh: '国家 / 地区' },
  status: { sql: 't.status', en: 'Status', zh: '状态' },
  shop_count: { sql: '(SELECT count(*)::int FROM shop s WHERE s.user_id = t.id)', en: 'Shops', zh: '店铺数' },
  tier: { sql: "coalesce(c.tier, 'standard')", en: 'Tier', zh: '客户等级' },
  account_manager: { sql: "coalesce(c.account_manager, '')", en: 'Account manager', zh: '客户经理' },
  created_at: { sql: 't.created_at', en: 'Created', zh: '创建时间' },
};
const EXPORT_MAX = 100_000;
const BATCH = 1000;

const exportBody = Type.Object(
  {
    columns: Type.Array(StringEnum(Object.keys(EXPORT_COLUMNS)), { minItems: 1, maxItems: 20, uniqueItems: true }),
    keyword: Type.Optional(Type.String({ maxLength: 100 })),
    email: Type.Optional(Type.String({ maxLength: 200 })),
    country_code: Type.Optional(Type.String({ pattern: '^[A-Za-z]{0,2}$' })),
    status: Type.Optional(Type.Integer({ minimum: 0, maximum: 1 })),
  },
  { additionalProperties: false },
);

export const customerModalRoutes: RouteDef[] = [
  route({
    method: 'GET',
    path: 'customer/config',
    access: { permission: [PG.customerList, PG.customerConfig] },
    summary: "A customer's configuration (the defaults until it is first saved)",
    query: idQuery,
    reply: configReply,
    handler: async (ctx) => {
      const { id } = ctx.query;
      const r = (
        await ctx.db.query<Config>(
          `SELECT u.id AS user_id, u.name, u.email, coalesce(c.tier, 'standard') AS tier, coalesce(c.account_manager, '') AS account_manager,
                  coalesce(c.invoice_email, '') AS invoice_email, coalesce(c.notice_language, 'zh-CN') AS notice_language, c.updated_at
             FROM merchant_user u LEFT JOIN customer_config c ON c.user_id = u.id WHERE u.id = $1`,
          [id],
        )
      ).rows[0];
      if (!r) throw notFound(`customer ${id}`);
      return r;
    },
  }),
  route({
    method: 'POST',
    path: 'customer/config/update',
    access: { permission: PG.customerConfig },
    summary: "Save a customer's configuration; audited as `config` on `merchant_user`",
    body: Type.Object(
      {
        id: Id,
        tier: StringEnum(TIERS),
        account_manager: Type.Optional(Type.String({ maxLength: 100 })),
        invoice_email: Type.Optional(Type.Union([Type.Literal(''), Type.String({ format: 'email', maxLength: 200 })])),
        notice_language: StringEnum(LANGS),
      },
      { additionalProperties: false },
    ),
    reply: configReply,
    handler: async (ctx) => {
      const { id, ...b } = ctx.body;
      await customerExists(ctx.db, id, 'id');
      const before = (await ctx.db.query(`SELECT tier, account_manager, invoice_email, notice_language FROM customer_config WHERE user_id = $1`, [id])).rows[0];
      const after = (
        await ctx.db.query<Pick<Config, 'tier' | 'account_manager' | 'invoice_email' | 'notice_language'>>(
          `INSERT INTO customer_config (user_id, tier, account_manager, invoice_email, notice_language, updated_by, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, now())
           ON CONFLICT (user_id) DO UPDATE SET tier = EXCLUDED.tier, account_manager = EXCLUDED.account_manager,
             invoice_email = EXCLUDED.invoice_email, notice_language = EXCLUDED.notice_language, updated_by = EXCLUDED.updated_by, updated_at = now()
           RETURNING tier, account_manager, invoice_email, notice_language`,
          [id, b.tier, b.account_manager?.trim() ?? '', b.invoice_email ?? '', b.notice_language, ctx.user?.id ?? null],
        )
      ).rows[0];
      await ctx.audit({ action: 'config', resource: 'merchant_user', targetId: id, before: before ?? null, after });
      const u = (await ctx.db.query<{ name: string; email: string }>(`SELECT name, email FROM merchant_user WHERE id = $1`, [id])).rows[0];
      return { user_id: id, ...u, ...after, updated_at: new Date().toISOString() };
    },
  }),
  route({
    method: 'GET',
    path: 'customer/note/list',
    access: { permission: [PG.customerList, PG.customerNote] },
    summary: "A customer's notes, newest first (at most 200)",
    query: idQuery,
    reply: Type.Object({
      user_id: int,
      name: str,
      total: int,
      list: Type.Array(Type.Object({ id: int, content: str, author: str, created_by: nint, created_at: dateTime })),
    }),
    handler: async (ctx) => {
      const { id } = ctx.query;
      const u = (await ctx.db.query<{ name: string }>(`SELECT name FROM merchant_user WHERE id = $1`, [id])).rows[0];
      if (!u) throw notFound(`customer ${id}`);
      const list = (
        await ctx.db.query<{ id: number; content: string; author: string; created_by: number | null; created_at: string }>(
          `SELECT id, content, author, created_by, created_at FROM customer_note WHERE user_id = $1 ORDER BY id DESC LIMIT 200`,
          [id],
        )
      ).rows;
      const total = Number((await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM customer_note WHERE user_id = $1`, [id])).rows[0].n);
      return { user_id: id, name: u.name, total, list };
    },
  }),
  route({
    method: 'POST',
    path: 'customer/note/create',
    access: { permission: PG.customerNote },
    summary: 'Add a note to a customer (signed with the author); audited as `note` on `merchant_user`',
    body: Type.Object({ user_id: Id, content: Type.String({ minLength: 1, maxLength: 1000 }) }, { additionalProperties: false }),
    reply: Type.Object({ id: int, user_id: int, content: str, author: str, author_name: nstr }),
    handler: async (ctx) => {
      const { user_id: userId, content } = ctx.body;
      if (!content.trim()) throw invalid([{ field: 'content', message: 'is required / 必填' }]);
      await customerExists(ctx.db, userId, 'user_id');
      const author = ctx.user?.email ?? '';
      const n = (
        await ctx.db.query<{ id: number }>(`INSERT INTO customer_note (user_id, content, created_by, author) VALUES ($1, $2, $3, $4) RETURNING id`, [
          userId,
          content.trim(),
          ctx.user?.id ?? null,
          author,
        ])
      ).rows[0];
      await ctx.audit({ action: 'note', resource: 'merchant_user', targetId: userId, after: { note_id: n.id, content: content.trim() } });
      return { id: n.id, user_id: userId, content: content.trim(), author, author_name: ctx.user?.name ?? null };
    },
  }),
  route({
    method: 'POST',
    path: 'customer/note/delete',
    access: { permission: PG.customerNote },
    summary: "Delete a customer's note; audited as `note_delete` on `merchant_user`",
    body: idQuery,
    reply: IdReply,
    handler: async (ctx) => {
      const { id } = ctx.body;
      const n = (await ctx.db.query<{ user_id: number; content: string }>(`DELETE FROM customer_note WHERE id = $1 RETURNING user_id, content`, [id])).rows[0];
      if (!n) throw notFound(`note ${id}`);
      await ctx.audit({ action: 'note_delete', resource: 'merchant_user', targetId: n.user_id, before: { note_id: id, content: n.content } });
      return { id };
    },
  }),
  {
    method: 'POST',
    path: 'customer/export',
    access: { permission: PG.customerDownload },
    summary: `The download modal: the filtered customers (at most ${EXPORT_MAX}) as a CSV file of the chosen columns, headers in the caller's language; audited as \`export\``,
    body: exportBody,
    reply: FileReply('text/csv', 'the chosen columns of the filtered customers, as CSV'),
    raw: 'stream',
    handler: async (ctx) => {
      const { req, reply } = ctx;
      // every check before the first byte: a bad body is a 40001 envelope naming the field
      // a cleared filter of the modal comes as null or '': no filter (null would coerce to 0)
      const given = Object.entries((req.body as Record<string, unknown> | null) ?? {}).filter(([, v]) => v !== null && v !== '');
      const b = check(exportBody, Object.fromEntries(given));
      const zh = requestLang(req) === 'zh-CN';
      const where: string[] = [];
      const params: unknown[] = [];
      /** a condition with one parameter, written `?` */
      const add = (sql: string, v: unknown) => {
        params.push(v);
        where.push(sql.replace(/\?/g, `$${params.length}`));
      };
      const kw = b.keyword?.trim();
      if (kw) add("(t.name ILIKE '%' || ? || '%' OR t.email ILIKE '%' || ? || '%' OR t.id::text = ?)", kw.replace(/[\\%_]/g, (c) => `\\${c}`));
      if (b.email?.trim()) add('lower(t.email) = lower(?)', b.email.trim());
      if (b.country_code) add('t.country_code = upper(?)', b.country_code);
      if (b.status !== undefined) add('t.status = ?', b.status);
      const cols = b.columns.map((c) => EXPORT_COLUMNS[c]);
      const stamp = new Date().toISOString().replace(/[-:]/g, '').slice(0, 15);
      const fileName = `customers-${stamp}.csv`;
      await inRawTx(ctx, (tx) => tx.audit({ action: 'export', resource: 'merchant_user', after: { columns: b.columns, filters: { ...b, columns: undefined }, file_name: fileName } }));
      const db = ctx.db;
      const filter = where.length ? ` AND ${where.join(' AND ')}` : '';
      async function* csv() {
        yield '\uFEFF' + cols.map((c) => csvCell(zh ? c.zh : c.en)).join(',') + '\r\n';
        let last = 0;
        for (let sent = 0; sent < EXPORT_MAX; ) {
          const r = await db.query<{ _id: number } & Record<string, unknown>>(
            `SELECT t.id AS _id, ${cols.map((c, i) => `${c.sql} AS c${i}`).join(', ')}
               FROM merchant_user t LEFT JOIN customer_config c ON c.user_id = t.id
              WHERE t.id > $${params.length + 1}${filter} ORDER BY t.id LIMIT ${Math.min(BATCH, EXPORT_MAX - sent)}`,
            [...params, last],
          );
          if (!r.rows.length) return;
          sent += r.rows.length;
          last = Number(r.rows[r.rows.length - 1]._id);
          yield r.rows.map((row) => cols.map((_, i) => csvCell(row[`c${i}`])).join(',')).join('\r\n') + '\r\n';
        }
      }
      reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${fileName}"`);
      return reply.send(Readable.from(csv()));
    },
  },
];
