/**
 * `GET schema/list` and `GET schema/detail?id=` — the schemas the signed-in account may open,
 * read from the store `loadSchemas` filled at start (and the dev watch keeps current).
 */
import { Type } from '@sinclair/typebox';
import { Code } from '../../src/contract/codes.js';
import { SCHEMA_CHECK } from '../../src/contract/schema-check.js';
import { AppError } from '../http/errors.js';
import { defineRoutes, route, type SessionUser } from '../http/route.js';
import { contentHash } from '../schemas/canonical.js';
import { getSchemaStore, type SchemaStore } from '../schemas/store.js';
import { permissionLocaleTrees, permissionTree } from '../schemas/permission-tree.js';
import type { ParsedSchema } from '../schemas/validate.js';
import { submitFieldsFor } from './schema-fields.js';
import { PermissionTreeReply, SchemaDetailReply, SchemaListReply } from '../../src/contract/replies/schema.js';

/**
 * May this account open the schema? Super admin: all. A schema naming a permission needs
 * that flattened key; one without needs access to its module (any key with the module
 * prefix, spec section 6); one with neither (enums) needs only a login.
 */
export function canOpenSchema(user: SessionUser, s: ParsedSchema): boolean {
  if (user.isSuperAdmin) return true;
  if (s.permission) return user.keys.has(s.permission);
  if (s.module) {
    for (const k of user.keys) if (k.startsWith(s.module)) return true;
    return false;
  }
  return true;
}

/**
 * The hash the client caches by: the schema's content hash, combined with the hashes of
 * the enums it refers to (so editing an enum also refreshes the pages that show it).
 */
export function servedHash(store: SchemaStore, s: ParsedSchema, fields?: unknown): string {
  const enums = Object.keys(store.enumsFor(s.id)).sort();
  if (!enums.length && fields === undefined) return s.hash;
  const parts = [s.hash, ...enums.map((e) => store.get(e)?.hash ?? '')];
  if (fields !== undefined) parts.push(contentHash(fields));
  return contentHash(parts);
}

/** `If-None-Match` may list several tags, quoted or weak. */
const matchesEtag = (header: string | string[] | undefined, hash: string): boolean => {
  const raw = Array.isArray(header) ? header.join(',') : header ?? '';
  return raw
    .split(',')
    .map((t) => t.trim().replace(/^W\//, '').replace(/^"|"$/g, ''))
    .some((t) => t === hash || t === '*');
};

export const routes = defineRoutes([
  {
    method: 'GET',
    path: 'schema/permission-tree',
    access: 'login',
    summary: 'The permission tree the console builds its routes and menus from: the manifest plus the menu pages the schemas declare (titles in both locales)',
    tags: ['schema'],
    reply: PermissionTreeReply,
    async handler() {
      // derived from the store (and the locale files), so the dev watch's changes show at once;
      // under the watch the locale files come along, so a page added live shows its texts
      // without a client rebuild
      const watching = getSchemaStore().watch !== null;
      return { modules: permissionTree(), ...(watching ? { texts: permissionLocaleTrees() } : {}) };
    },
  },
  route({
    method: 'GET',
    path: 'schema/list',
    access: 'login',
    summary: 'Schemas (pages and forms) the signed-in account may open, with version and content hash',
    tags: ['schema'],
    reply: SchemaListReply,
    async handler(ctx) {
      const store = getSchemaStore();
      const user = ctx.user as SessionUser;
      const open = store.pages().filter((s) => canOpenSchema(user, s));
      const fields = open.map((s) => submitFieldsFor(s.doc, ctx.req.server));
      return { checked: SCHEMA_CHECK, list: open.map((s, i) => ({ ...store.summary(s), hash: servedHash(store, s, fields[i]) })) };
    },
  }),
  route({
    method: 'GET',
    path: 'schema/detail',
    access: 'login',
    summary: 'One schema with the enums it refers to; ETag = hash, 304 on If-None-Match',
    tags: ['schema'],
    query: Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) }),
    // sent by the handler itself (ETag, 304): documented only
    reply: SchemaDetailReply,
    raw: 'stream',
    async handler(ctx) {
      const store = getSchemaStore();
      const s = store.get(ctx.query.id);
      // a schema the caller may not open is answered exactly like one that does not exist, so the
      // reply does not tell which ids exist (schema/list shows the caller what it may open)
      if (!s || !ctx.user || !canOpenSchema(ctx.user, s)) {
        throw new AppError(Code.NOT_FOUND, `schema ${ctx.query.id} not found / 未找到页面定义 ${ctx.query.id}`);
      }
      const fields = submitFieldsFor(s.doc, ctx.req.server);
      const hash = servedHash(store, s, fields);
      const etag = `"${hash}"`;
      ctx.reply.header('ETag', etag).header('Cache-Control', 'no-cache');
      if (matchesEtag(ctx.req.headers['if-none-match'], hash)) {
        ctx.reply.code(304).send();
        return;
      }
      const data = { schema: s.doc, hash, enums: store.enumsFor(s.id), fields, checked: SCHEMA_CHECK };
      ctx.reply
        .code(200)
        .type('application/json; charset=utf-8')
        .serializer(JSON.stringify)
        .send({ code: Code.OK, msg: 'ok', data });
    },
  }),
]);
