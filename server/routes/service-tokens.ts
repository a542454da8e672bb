/**
 * The Service tokens page (admin_center, system/service-tokens): the credentials of the
 * customer-service platform on the ingestion API (server/routes/ingest.ts). A token is shown
 * once, in the reply of `service-token/create`, and stored only as its SHA-256; it is revoked,
 * never edited or shown again. Creation and revocation are audited (without the token).
 */
import { Type, type Static } from '@sinclair/typebox';
import { assertHolds } from '../auth/ceiling.js';
import { conflict, invalid, notFound } from '../http/errors.js';
import { K } from '../resources/keys.js';
import { SK } from '../resources/sessions/keys.js';
import { VK } from '../resources/voice/keys.js';
import { pageFields, pageReply, paged } from '../http/list.js';
import { defineRoutes, route, type RouteContext, type RouteDef } from '../http/route.js';
import { Nullable, StringEnum } from '../http/typebox.js';
import { INGEST_SCOPES, newServiceToken, tokenHint, type IngestScope } from '../auth/service-tokens.js';
import { sha256 } from '../auth/tokens.js';

/** Flattened keys (src/contract/permission-manifest.ts). */
export const ServiceTokenKeys = {
  page: 'admin_center.admin.service_token',
  create: 'admin_center.admin.service_token.create',
  revoke: 'admin_center.admin.service_token.delete',
} as const;

/**
 * The page key of the records each scope writes (issue 25): minting a token is handing out that
 * power, so the actor must hold the key of every scope it grants (the privilege ceiling,
 * server/auth/ceiling.ts) — a super admin holds them all.
 */
export const SCOPE_KEYS: Record<IngestScope, string> = {
  sessions: SK.chat,
  mails: SK.mail,
  orders: K.order,
  feedback: SK.feedback,
  tickets: K.material,
  call_logs: VK.log,
};

const when = Nullable(Type.String({ format: 'date-time' }));
const Row = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  token_hint: Type.String({ description: 'the first 8 characters, to tell tokens apart (never usable)' }),
  scopes: Type.Array(StringEnum(INGEST_SCOPES)),
  shop_ids: Nullable(Type.Array(Type.Integer(), { description: 'the shops it may write to; null: every shop' })),
  state: StringEnum(['active', 'revoked']),
  created_by: Nullable(Type.Integer()),
  created_by_name: Nullable(Type.String()),
  created_at: Type.String({ format: 'date-time' }),
  last_used_at: when,
  revoked_at: when,
  revoked_by_name: Nullable(Type.String()),
});
type Row = Static<typeof Row>;

const COLS = `t.id, t.name, t.token_hint, t.scopes, t.shop_ids, CASE WHEN t.revoked_at IS NULL THEN 'active' ELSE 'revoked' END AS state,
  t.created_by, c.name AS created_by_name, t.created_at, t.last_used_at, t.revoked_at, r.name AS revoked_by_name`;
const FROM = 'FROM service_token t LEFT JOIN accounts c ON c.id = t.created_by LEFT JOIN accounts r ON r.id = t.revoked_by';

const one = async (ctx: RouteContext<unknown, unknown>, id: number): Promise<Row> => (await ctx.db.query<Row>(`SELECT ${COLS} ${FROM} WHERE t.id = $1`, [id])).rows[0];

export const routes: RouteDef[] = defineRoutes([
  route({
    method: 'GET',
    path: 'service-token/list',
    access: { permission: ServiceTokenKeys.page },
    summary: 'Service tokens of the ingestion API, newest first (never the token itself: its first 8 characters)',
    query: Type.Object({
      ...pageFields,
      state: Type.Optional(StringEnum(['active', 'revoked'])),
      keyword: Type.Optional(Type.String({ maxLength: 100, description: 'part of the name' })),
    }),
    reply: pageReply(Row),
    handler(ctx) {
      const keyword = ctx.query.keyword?.trim() || null;
      return paged<Row>(ctx.db, {
        select: COLS,
        fromWhere: `${FROM} WHERE ($1::text IS NULL OR ($1::text = 'active') = (t.revoked_at IS NULL))
          AND ($2::text IS NULL OR t.name ILIKE '%' || replace(replace(replace($2::text, '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%')`,
        orderBy: 't.id DESC',
        params: [ctx.query.state ?? null, keyword],
      }, ctx.query);
    },
  }),
  route({
    method: 'POST',
    path: 'service-token/create',
    access: { permission: ServiceTokenKeys.create },
    summary:
      'Creates a service token with its scopes, optionally limited to shops (shop_ids; none: every shop); the actor must hold the page key of every scope it grants (40003). The reply holds the token (bct_…) — the only time it is shown',
    body: Type.Object({
      name: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }),
      scopes: Type.Array(StringEnum(INGEST_SCOPES), { minItems: 1, uniqueItems: true }),
      shop_ids: Type.Optional(Type.Array(Type.Integer({ minimum: 1, maximum: 2147483647 }), { minItems: 1, maxItems: 1000, uniqueItems: true })),
    }),
    reply: Type.Object({ ...Row.properties, token: Type.String({ description: 'shown once: store it now' }) }),
    async handler(ctx) {
      const token = newServiceToken();
      const name = ctx.body.name.trim();
      const scopes = INGEST_SCOPES.filter((x) => ctx.body.scopes.includes(x));
      // the ceiling: a token writes what its scopes' pages show; no more than the actor may see
      assertHolds(ctx.user!, scopes.map((x) => SCOPE_KEYS[x]), 'you cannot mint a token for records you cannot see yourself', '不能为自己无权查看的记录创建令牌');
      const shopIds = ctx.body.shop_ids ? [...ctx.body.shop_ids].sort((a, b) => a - b) : null;
      if (shopIds) {
        const found = (await ctx.db.query<{ id: number }>('SELECT id FROM shop WHERE id = ANY($1::int[])', [shopIds])).rows.map((x) => x.id);
        const missing = shopIds.filter((x) => !found.includes(x));
        if (missing.length) throw invalid([{ field: 'shop_ids', message: `no such shop: ${missing.slice(0, 5).join(', ')} / 店铺不存在：${missing.slice(0, 5).join(', ')}` }]);
      }
      const r = await ctx.db.query<{ id: number }>(
        'INSERT INTO service_token (name, token_hash, token_hint, scopes, shop_ids, created_by) VALUES ($1, $2, $3, $4::text[], $5::int[], $6) RETURNING id',
        [name, sha256(token), tokenHint(token), scopes, shopIds, ctx.user?.id ?? null],
      );
      const id = r.rows[0].id;
      // the audit row names the token by id, name and hint; never the token
      await ctx.audit({ action: 'create', resource: 'service_token', targetId: id, after: { name, scopes, shop_ids: shopIds, hint: tokenHint(token) } });
      return { ...(await one(ctx, id)), token };
    },
  }),
  route({
    method: 'POST',
    path: 'service-token/revoke',
    access: { permission: ServiceTokenKeys.revoke },
    summary: 'Revokes a service token at once (its next call is 20001); 40009 when it is already revoked',
    body: Type.Object({ id: Type.Integer({ minimum: 1 }) }),
    reply: Row,
    async handler(ctx) {
      const { id } = ctx.body;
      const before = (await ctx.db.query<{ name: string; revoked_at: string | null }>('SELECT name, revoked_at FROM service_token WHERE id = $1 FOR UPDATE', [id])).rows[0];
      if (!before) throw notFound(`service token ${id}`);
      if (before.revoked_at) throw conflict(`service token ${id} is already revoked / 该服务令牌已吊销`);
      await ctx.db.query('UPDATE service_token SET revoked_at = now(), revoked_by = $2 WHERE id = $1', [id, ctx.user?.id ?? null]);
      await ctx.audit({ action: 'revoke', resource: 'service_token', targetId: id, before: { name: before.name, state: 'active' }, after: { state: 'revoked' } });
      return one(ctx, id);
    },
  }),
]);
