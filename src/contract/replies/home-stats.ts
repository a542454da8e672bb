import { Type, type Static } from '@sinclair/typebox';
import { MODULES } from '../permission-manifest.js';
import { Nullable, StringEnum } from './typebox.js';

/**
 * The reply of `GET home/stats` (server/routes/home-stats.ts declares it as its reply; the
 * console's module homes read `HomeStats`): one declaration, so a rename fails to compile on
 * both sides. A figure is present only when the account may open its page.
 */
const int = Type.Integer();
const ByKey = Type.Object({ total: int, items: Type.Array(Type.Object({ key: Type.String(), count: int })) });
const PerDay = Type.Object({ series: Type.Array(Type.Object({ key: Type.String(), counts: Type.Array(int) })) });
const AmountPerDay = Type.Object({ series: Type.Array(Type.Object({ key: Type.String(), counts: Type.Array(Type.Number()) })) });
const Share = Type.Object({ total: int, part: int, share: Nullable(Type.Number()) });

export const HomeFiguresReply = Type.Object({
  sessions_per_day: Type.Optional(PerDay),
  ai_resolved: Type.Optional(Share),
  feedback_by_status: Type.Optional(ByKey),
  test_tasks_by_status: Type.Optional(ByKey),
  rating_tasks_by_status: Type.Optional(ByKey),
  /** what the model calls cost per day (chat, embeddings, connection tests) at the servers' prices */
  ai_cost_per_day: Type.Optional(AmountPerDay),
  calls_per_day: Type.Optional(PerDay),
  connect_rate: Type.Optional(Share),
  call_tasks_by_status: Type.Optional(ByKey),
  train_tasks_by_status: Type.Optional(ByKey),
  datasets_by_size: Type.Optional(ByKey),
  accounts: Type.Optional(Type.Object({ total: int, enabled: int, disabled: int })),
  roles: Type.Optional(Type.Object({ total: int, super_admin: int, unassigned: int })),
  audit_per_day: Type.Optional(PerDay),
});

export const HomeStatsReply = Type.Object({
  module: StringEnum(MODULES),
  tz: Type.String(),
  /** the 14 calendar days (YYYY-MM-DD in `tz`), oldest first; per-day counts follow this order */
  days: Type.Array(Type.String()),
  figures: HomeFiguresReply,
});

export type HomeStats = Static<typeof HomeStatsReply>;
export type HomeFigures = Static<typeof HomeFiguresReply>;
