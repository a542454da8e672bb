/**
 * Module homes with live figures (issue 14): `GET home/stats?module=…&tz=…` answers the key
 * figures of one module's home, each computed from the database only when the account holds the
 * key of the page the figure belongs to (the sessions chart needs a sessions page key, the call
 * figures the call log page key, …). A signed-in account without any of those keys gets an empty
 * `figures` object, never a refusal: the home itself is open to everyone signed in; anonymous
 * callers get 20001.
 *
 * Per-day figures cover the last 14 days including today, bucketed by the calendar day of the
 * time zone `tz` (an IANA name, default UTC; the console sends the browser's zone). "Today" is
 * the engine's clock (`app.jobs.clock`), so tests can place it. Plain SQL, the same on PGlite and
 * PostgreSQL (docs/api.md "Module homes").
 */
import { Type } from '@sinclair/typebox';
import { MODULES } from '../../src/contract/permission-manifest.js';
import { HomeStatsReply } from '../../src/contract/replies/home-stats.js';
import { invalid } from '../http/errors.js';
import { allowed } from '../http/register.js';
import { defineRoutes, route, type SessionUser } from '../http/route.js';
import { StringEnum } from '../http/typebox.js';
import { BY_MODULE, homeWindow, type Can } from './home-figures.js';

function validZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

const canFor = (user: SessionUser | null): Can => (key) => allowed({ permission: key }, user);

export const routes = defineRoutes([
  route({
    method: 'GET',
    path: 'home/stats',
    access: 'login',
    summary:
      "A module home's key figures: only those whose page the account may open (each figure names its page key); " +
      'per-day figures cover the last 14 days, bucketed by calendar day in `tz` (IANA, default UTC)',
    query: Type.Object({
      module: StringEnum(MODULES),
      tz: Type.Optional(Type.String({ maxLength: 64, default: 'UTC', description: 'IANA time zone of the day buckets, e.g. Asia/Shanghai' })),
    }),
    reply: HomeStatsReply,
    async handler(ctx) {
      const tz = ctx.query.tz || 'UTC';
      if (!validZone(tz)) throw invalid([{ field: 'tz', message: 'must be an IANA time zone name / 须为 IANA 时区名' }]);
      const now = (ctx.req.server.jobs?.clock ?? { now: () => new Date() }).now();
      const w = homeWindow(now, tz);
      const figures = await BY_MODULE[ctx.query.module](ctx.db, w, canFor(ctx.user));
      return { module: ctx.query.module, tz, days: w.days, figures };
    },
  }),
]);
