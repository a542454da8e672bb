/**
 * The shop introduction modal (`GET shop/introduction`, `POST shop/introduction/update`) and the
 * pro form (`POST customer/onboard`: a new customer with their first shop and its introduction in
 * one transaction). Page groups of spec section 2, docs/modules/page-groups.md "Issue 26".
 */
import { Type, type Static } from '@sinclair/typebox';
import type { Queryable } from '../../db/db.js';
import { invalid, notFound } from '../../http/errors.js';
import { route, type RouteDef } from '../../http/route.js';
import { Nullable, StringEnum } from '../../http/typebox.js';
import { Id, idQuery } from '../engine/schemas.js';
import { dateTime, int, nint, nstr, PG, str } from './keys.js';

const introFields = {
  brand: Type.Optional(Type.String({ maxLength: 100 })),
  introduction: Type.String({ minLength: 1, maxLength: 2000 }),
  main_products: Type.Optional(Type.String({ maxLength: 500 })),
  service_hours: Type.Optional(Type.String({ maxLength: 200 })),
};
const introTexts = { brand: str, introduction: str, main_products: str, service_hours: str };
const introReply = Type.Object({
  shop_id: int,
  shop_name: str,
  ...introTexts,
  updated_by: nint,
  updated_by_name: nstr,
  updated_at: Nullable(dateTime),
});
type Intro = Static<typeof introReply>;

const blank = (s: string | undefined) => !s || !s.trim();

async function saveIntro(db: Queryable, shopId: number, b: { brand?: string; introduction: string; main_products?: string; service_hours?: string }, by: number | null) {
  const r = await db.query<Pick<Intro, 'shop_id' | keyof typeof introTexts>>(
    `INSERT INTO shop_introduction (shop_id, brand, introduction, main_products, service_hours, updated_by, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, now())
     ON CONFLICT (shop_id) DO UPDATE SET brand = EXCLUDED.brand, introduction = EXCLUDED.introduction,
       main_products = EXCLUDED.main_products, service_hours = EXCLUDED.service_hours, updated_by = EXCLUDED.updated_by, updated_at = now()
     RETURNING shop_id, brand, introduction, main_products, service_hours`,
    [shopId, b.brand?.trim() ?? '', b.introduction.trim(), b.main_products?.trim() ?? '', b.service_hours?.trim() ?? '', by],
  );
  return r.rows[0];
}

export const shopIntroRoutes: RouteDef[] = [
  route({
    method: 'GET',
    path: 'shop/introduction',
    access: { permission: [PG.shopList, PG.shopIntroduction] },
    summary: "A shop's introduction (brand, what it is, main products, service hours); empty texts when none was written yet",
    query: idQuery,
    reply: introReply,
    handler: async (ctx) => {
      const { id } = ctx.query;
      const r = (
        await ctx.db.query<Intro>(
          `SELECT s.id AS shop_id, s.name AS shop_name, coalesce(i.brand, '') AS brand, coalesce(i.introduction, '') AS introduction,
                  coalesce(i.main_products, '') AS main_products, coalesce(i.service_hours, '') AS service_hours,
                  i.updated_by, a.name AS updated_by_name, i.updated_at
             FROM shop s LEFT JOIN shop_introduction i ON i.shop_id = s.id LEFT JOIN accounts a ON a.id = i.updated_by
            WHERE s.id = $1`,
          [id],
        )
      ).rows[0];
      if (!r) throw notFound(`shop ${id}`);
      return r;
    },
  }),
  route({
    method: 'POST',
    path: 'shop/introduction/update',
    access: { permission: PG.shopIntroduction },
    summary: "Write a shop's introduction (created on the first save); audited as `introduction` on `shop`",
    body: Type.Object({ id: Id, ...introFields }, { additionalProperties: false }),
    reply: introReply,
    handler: async (ctx) => {
      const { id, ...b } = ctx.body;
      if (blank(b.introduction)) throw invalid([{ field: 'introduction', message: 'is required / 必填' }]);
      const before = (await ctx.db.query(`SELECT brand, introduction, main_products, service_hours FROM shop_introduction WHERE shop_id = $1`, [id])).rows[0];
      const shop = (await ctx.db.query<{ name: string }>(`SELECT name FROM shop WHERE id = $1`, [id])).rows[0];
      if (!shop) throw invalid([{ field: 'id', message: `shop ${id} does not exist / 店铺不存在` }]);
      const after = await saveIntro(ctx.db, id, b, ctx.user?.id ?? null);
      await ctx.audit({ action: 'introduction', resource: 'shop', targetId: id, before: before ?? null, after });
      return { ...after, shop_name: shop.name, updated_by: ctx.user?.id ?? null, updated_by_name: ctx.user?.name ?? null, updated_at: new Date().toISOString() };
    },
  }),
  route({
    method: 'POST',
    path: 'customer/onboard',
    access: { permission: PG.customerOnboard },
    summary: 'The pro form: a new customer, their first shop and (optionally) its introduction, written in one transaction; audited as three creates',
    body: Type.Object(
      {
        name: Type.String({ minLength: 1, maxLength: 100 }),
        email: Type.String({ format: 'email', maxLength: 200 }),
        phone: Type.Optional(Type.String({ maxLength: 40 })),
        country_code: Type.String({ pattern: '^[A-Z]{2}$' }),
        shop_name: Type.String({ minLength: 1, maxLength: 200 }),
        shop_type: Type.Integer({ minimum: 1, maximum: 4 }), // the shop_type enum (CHECK of migration 0021)
        shop_link: Type.Optional(Type.String({ maxLength: 500, pattern: '^(https?://\\S+)?$' })),
        env: Type.Optional(StringEnum(['dev', 'pre', 'prod', 'pre2', 'pre3'])),
        is_test: Type.Optional(Type.Boolean()),
        ...introFields,
        introduction: Type.Optional(Type.String({ maxLength: 2000 })),
      },
      { additionalProperties: false },
    ),
    reply: Type.Object({ user_id: int, shop_id: int }),
    handler: async (ctx) => {
      const b = ctx.body;
      const errors: Array<{ field: string; message: string }> = [];
      if (blank(b.name)) errors.push({ field: 'name', message: 'is required / 必填' });
      if (blank(b.shop_name)) errors.push({ field: 'shop_name', message: 'is required / 必填' });
      if (errors.length) throw invalid(errors);
      const known = await ctx.db.query(`SELECT id FROM merchant_user WHERE lower(email) = lower($1) LIMIT 1`, [b.email]);
      if (known.rows.length) throw invalid([{ field: 'email', message: 'a customer with this e-mail exists already / 已有使用该邮箱的客户' }]);
      const u = (
        await ctx.db.query<Record<string, unknown> & { id: number }>(
          `INSERT INTO merchant_user (name, email, phone, country_code) VALUES ($1, $2, $3, $4) RETURNING id, name, email, phone, country_code, status`,
          [b.name.trim(), b.email, b.phone?.trim() || null, b.country_code],
        )
      ).rows[0];
      await ctx.audit({ action: 'create', resource: 'merchant_user', targetId: u.id, after: u });
      const s = (
        await ctx.db.query<Record<string, unknown> & { id: number }>(
          `INSERT INTO shop (name, type, user_id, link, env, country_code, is_test, creation_source)
           VALUES ($1, $2, $3, $4, $5, $6, $7, 0) RETURNING id, name, type, user_id, link, env, country_code, is_test`,
          [b.shop_name.trim(), b.shop_type, u.id, b.shop_link ?? '', b.env ?? 'prod', b.country_code, b.is_test ?? false],
        )
      ).rows[0];
      await ctx.audit({ action: 'create', resource: 'shop', targetId: s.id, after: s });
      if (!blank(b.introduction)) {
        const intro = await saveIntro(ctx.db, s.id, { ...b, introduction: b.introduction ?? '' }, ctx.user?.id ?? null);
        await ctx.audit({ action: 'introduction', resource: 'shop', targetId: s.id, before: null, after: intro });
      }
      return { user_id: u.id, shop_id: s.id };
    },
  }),
];
