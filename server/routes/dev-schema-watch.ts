/**
 * `GET schema/watch-status` — what the dev schema watch (SCHEMA_WATCH=1, server/schemas/watch.ts)
 * reports: edits it refused (the last good version is still served) and problems of what is
 * served, each `{ file, pointer, reason }`. The client's dev inspector shows them. Without a
 * running watch the reply is `{ watching: false }` with empty lists.
 *
 * Access as for the schemas themselves: a super admin sees every problem; another account only
 * those in files of schemas it may open (canOpenSchema), so the reply tells nothing about pages
 * it cannot open (new files and the manifest are super-admin only).
 */
import type { SchemaProblem } from '../schemas/problems.js';
import { getSchemaStore } from '../schemas/store.js';
import { defineRoutes, route, type SessionUser } from '../http/route.js';
import { canOpenSchema } from './schema.js';
import { WatchStatusReply } from '../../src/contract/replies/schema.js';

export const routes = defineRoutes([
  route({
    method: 'GET',
    path: 'schema/watch-status',
    access: 'login',
    summary: 'Dev schema watch: refused edits and problems of the served schemas (empty without SCHEMA_WATCH=1)',
    tags: ['schema'],
    reply: WatchStatusReply,
    async handler(ctx) {
      const store = getSchemaStore();
      const status = store.watch;
      if (!status) return { watching: false, refused: [], standing: [] };
      const user = ctx.user as SessionUser;
      const visible = (p: SchemaProblem) => {
        if (user.isSuperAdmin) return true;
        const s = store.byFile(p.file);
        return Boolean(s && canOpenSchema(user, s));
      };
      return { watching: true, refused: status.refused.filter(visible), standing: status.standing.filter(visible) };
    },
  }),
]);
