/**
 * The session viewers' filters, page and picked session kept in the URL query (issue 26: a
 * reload or a shared link shows the same view; back returns to the previous filters):
 * `shop_id`, `mail_account_id`, `from` / `to` (days, YYYY-MM-DD, in the browser's time zone),
 * `extra` under its own name (`channel`, `direction`), `keyword`, `page`, `session`.
 */
import dayjs, { type Dayjs } from 'dayjs';
import type { QueryValues } from '../../runtime/query.js';
import type { SessionFilters } from './api.js';

const DAY = 'YYYY-MM-DD';

export interface ViewState {
  filters: SessionFilters;
  page: number;
  session: number | null;
}

const posInt = (v: string | undefined): number | undefined => {
  const n = Number(v);
  return v && Number.isInteger(n) && n > 0 ? n : undefined;
};
const day = (v: string | undefined): Dayjs | undefined => {
  const d = v && /^\d{4}-\d{2}-\d{2}$/.test(v) ? dayjs(v) : undefined;
  // a real day only (2026-13-45 would roll over into another)
  return d?.isValid() && d.format(DAY) === v ? d : undefined;
};

export function stateFromQuery(q: QueryValues, extraKey: string | null): ViewState {
  const from = day(q.from);
  const to = day(q.to);
  return {
    filters: {
      shop_id: posInt(q.shop_id),
      mail_account_id: posInt(q.mail_account_id),
      from: from?.startOf('day').toISOString(),
      to: to?.endOf('day').toISOString(),
      extra: extraKey ? q[extraKey] || undefined : undefined,
      keyword: q.keyword || undefined,
    },
    page: posInt(q.page) ?? 1,
    session: posInt(q.session) ?? null,
  };
}

/** what the filter form shows for a URL */
export interface FormValues {
  shop_id?: number;
  mail_account_id?: number;
  range?: [Dayjs, Dayjs];
  extra?: string;
  keyword?: string;
}

export function formFromQuery(q: QueryValues, extraKey: string | null): FormValues {
  const from = day(q.from);
  const to = day(q.to);
  return {
    shop_id: posInt(q.shop_id),
    mail_account_id: posInt(q.mail_account_id),
    range: from && to ? [from, to] : undefined,
    extra: extraKey ? q[extraKey] || undefined : undefined,
    keyword: q.keyword || undefined,
  };
}

/** the query keys a search sets (every key: an empty one is removed), back on page 1 and no session picked */
export function queryFromForm(v: FormValues, extraKey: string | null): Record<string, string | undefined> {
  const s = (x: unknown) => (x === undefined || x === null || x === '' ? undefined : String(x));
  const out: Record<string, string | undefined> = {
    shop_id: s(v.shop_id),
    mail_account_id: s(v.mail_account_id),
    from: v.range?.[0]?.format(DAY),
    to: v.range?.[1]?.format(DAY),
    keyword: s(v.keyword?.trim()),
    page: undefined,
    session: undefined,
  };
  if (extraKey) out[extraKey] = s(v.extra);
  return out;
}
