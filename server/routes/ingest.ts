/**
 * The ingestion API (issue 14): the customer-service platform pushes sessions, mails, orders,
 * feedback, tickets and call logs under /api/ingest/v1/, authorised by a service token
 * (`Authorization: Bearer bct_…`, one scope per route; server/auth/service-tokens.ts), never by
 * a console session. Each call takes `{ records: [...] }` (1–1,000) and answers one result per
 * record (server/ingest/ingest.ts); each batch leaves one audit row. docs/api.md "Ingestion API".
 */
import { Type } from '@sinclair/typebox';
import { pickLang, requestLang } from '../http/lang.js';
import { defineRoutes, route, type RouteDef } from '../http/route.js';
import { Nullable, StringEnum } from '../http/typebox.js';
import { ingestBatch } from '../ingest/ingest.js';
import { KINDS } from '../ingest/kinds.js';

export const INGEST_MAX_RECORDS = 1000;
/** a batch of 1,000 sessions with their messages is larger than the console's 1 MiB */
export const INGEST_BODY_LIMIT = 16 * 1024 * 1024;

const FieldErrorReply = Type.Object({ field: Type.String(), message: Type.String() });
/** The reply of a batch: its counts and one result per record (server/ingest/ingest.ts `BatchOutcome`). */
const IngestReply = Type.Object({
  created: Type.Integer(),
  updated: Type.Integer(),
  unchanged: Type.Integer(),
  rejected: Type.Integer(),
  results: Type.Array(
    Type.Object({
      index: Type.Integer({ description: 'position of the record in `records`' }),
      external_id: Nullable(Type.String()),
      status: StringEnum(['created', 'updated', 'unchanged', 'rejected']),
      id: Nullable(Type.Integer({ description: "the row's id in the console (null when rejected)" })),
      errors: Type.Optional(Type.Array(FieldErrorReply)),
    }),
  ),
});

export const routes: RouteDef[] = defineRoutes(
  KINDS.map((k) => route({
    method: 'POST',
    base: 'ingest/v1',
    path: k.path,
    access: { service: k.scope },
    tags: ['ingest'],
    bodyLimit: INGEST_BODY_LIMIT,
    summary:
      `${k.summary}. Bearer service token with scope "${k.scope}". Up to ${INGEST_MAX_RECORDS} records, each checked on its own ` +
      '(the record schema is `x-record-schema` of `records.items`); idempotent by (shop_id, external_id): created, updated, unchanged or rejected with its fields',
    body: Type.Object({
      records: Type.Array(
        // validated record by record in the handler, so one bad record does not refuse the batch
        Type.Unsafe<unknown>({ description: 'one record, checked on its own against x-record-schema', 'x-record-schema': k.schema }),
        { minItems: 1, maxItems: INGEST_MAX_RECORDS },
      ),
    }),
    reply: IngestReply,
    async handler(ctx) {
      const token = ctx.req.serviceToken;
      const out = await ingestBatch(ctx.db, k, ctx.body.records, { shopIds: token?.shopIds ?? null });
      await ctx.audit({
        action: 'ingest',
        resource: 'ingest',
        targetId: k.path,
        after: {
          service: token ? { id: token.id, name: token.name } : null,
          records: ctx.body.records.length,
          created: out.created,
          updated: out.updated,
          unchanged: out.unchanged,
          rejected: out.rejected,
          // which records were refused (at most 50), not their content
          rejected_records: out.results.filter((r) => r.status === 'rejected').slice(0, 50).map((r) => ({ index: r.index, external_id: r.external_id })),
        },
      });
      // a record's errors in the caller's language, like the envelope's own (server/http/lang.ts)
      const lang = requestLang(ctx.req);
      if (lang) for (const r of out.results) for (const e of r.errors ?? []) e.message = pickLang(e.message, lang);
      return out;
    },
  })),
);
