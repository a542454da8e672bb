import { Type } from '@sinclair/typebox';
import { route, type RouteDef } from '../../http/route.js';
import { conflict } from '../../http/errors.js';
import { F } from '../engine/fields.js';
import { mustFind, updateRow } from '../engine/routes.js';
import { Id, idBody, rowSchema } from '../engine/schemas.js';
import type { ResourceDef } from '../engine/types.js';
import { DESC_STATUS, ids } from '../enums.js';
import { K } from '../keys.js';
import { REIDENTIFY_KIND } from './product-identify.js';

/** a job of this description that is still queued or running */
const LIVE_JOB = `EXISTS (SELECT 1 FROM work_job j WHERE j.id = t.identify_job_id AND j.state IN ('queued', 'running'))`;

/** Product descriptions the AI identified from shop products (learn/productKnowledge). */
export const productDesc: ResourceDef = {
  name: 'shop-product-desc',
  auditName: 'product_desc',
  table: 'product_desc',
  keyword: "to_tsvector('simple', t.title)",
  keywordIds: ['id'],
  defaultSort: { field: 'id', order: 'desc' },
  fields: {
    id: F.id(),
    shop_id: { ...F.shopId(), readOnly: true },
    shop_name: F.shopName(),
    product_id: { schema: { type: 'string', maxLength: 60 }, readOnly: true, filter: 'eq' },
    title: { schema: { type: 'string', maxLength: 300 }, readOnly: true },
    description: { schema: { type: 'string', maxLength: 20000 }, readOnly: true, detailOnly: true },
    identified_desc: F.text(20000),
    status: { ...F.enumOf(ids(DESC_STATUS)), readOnly: true },
    /** 'builtin' (rule-based extraction, no model) or 'model'; '' before the first identification */
    identify_method: { schema: { type: 'string', enum: ['', 'builtin', 'model', 'manual'] }, readOnly: true, filter: 'eq' },
    /** why the last identification failed (status 3) */
    identify_error: { schema: { type: 'string' }, readOnly: true },
    attributes: { schema: { type: 'object', additionalProperties: true }, readOnly: true, detailOnly: true },
    identify_job_id: { schema: { type: 'integer' }, nullable: true, readOnly: true },
    identify_job_state: {
      schema: { type: 'string' },
      nullable: true,
      virtual: true,
      select: '(SELECT j.state FROM work_job j WHERE j.id = t.identify_job_id)',
    },
    identified_at: F.dateTime({ nullable: true, readOnly: true }),
    created_at: F.createdAt(),
    updated_at: F.updatedAt(),
  },
  operations: { list: { permission: K.productKnowledge } },
};

productDesc.actions = [
  route({
    method: 'POST',
    path: 'shop-product-desc/edit',
    access: { permission: K.productKnowledge },
    summary: 'Correct the identified description by hand (status becomes identified)',
    reply: rowSchema(productDesc),
    body: Type.Object({ id: Id, identified_desc: Type.String({ minLength: 1, maxLength: 20000 }) }, { additionalProperties: false }),
    handler: async (ctx) => {
      const b = ctx.body;
      const before = await mustFind(productDesc, ctx, b.id);
      // a hand correction wins over a queued or running identification (its job stops writing)
      await ctx.db.query(
        `UPDATE product_desc SET status = 2, identify_method = 'manual', identify_error = '', identify_job_id = NULL WHERE id = $1`,
        [b.id],
      );
      return updateRow(productDesc, ctx, b.id, { identified_desc: b.identified_desc }, before, 'edit');
    },
  }),
  route({
    method: 'POST',
    path: 'shop-product-desc/reidentify',
    access: { permission: K.productKnowledge },
    summary: 'Identify the description again as a job (`product.reidentify`: the model when one is configured, else the built-in extraction); status back to pending',
    reply: rowSchema(productDesc),
    body: idBody,
    handler: async (ctx) => {
      const { id } = ctx.body;
      const before = await mustFind(productDesc, ctx, id);
      const live = await ctx.db.query(`SELECT 1 FROM product_desc t WHERE t.id = $1 AND ${LIVE_JOB}`, [id]);
      if (live.rows.length) throw conflict('identification is already queued or running / 正在识别中，请稍候');
      // the job and the status change commit together
      const job = await ctx.req.server.jobs.enqueue(ctx.db, REIDENTIFY_KIND, { descId: id }, {
        createdBy: ctx.user?.id ?? null,
        ref: { type: 'product_desc', id },
        title: `Identify "${String(before.title).slice(0, 60)}" / 识别商品描述`,
      });
      await ctx.db.query(`UPDATE product_desc SET status = 0, identify_error = '', identify_job_id = $2 WHERE id = $1`, [id, job.id]);
      return updateRow(productDesc, ctx, id, {}, before, 'reidentify');
    },
  }),
] satisfies RouteDef[];
