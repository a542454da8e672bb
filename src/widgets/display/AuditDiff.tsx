import diff from 'microdiff';
import { Table } from 'antd';
import { useRuntime } from '../../runtime/context.js';
import type { DisplayProps } from '../../runtime/registry.js';

type Obj = Record<string, unknown>;
const asObj = (v: unknown): Obj => {
  if (typeof v === 'string') {
    try {
      return asObj(JSON.parse(v));
    } catch {
      return { value: v };
    }
  }
  return v && typeof v === 'object' ? (v as Obj) : v === undefined || v === null ? {} : { value: v };
};
const show = (v: unknown) => (v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));
const at = (v: unknown, path: ReadonlyArray<string | number>) =>
  path.reduce<unknown>((cur, k) => (cur && typeof cur === 'object' ? (cur as Obj)[k as string] : undefined), v);

export interface DiffRow {
  key: string;
  path: string;
  before: string;
  after: string;
}

/**
 * Changed paths between two objects. An array counts as a set: its row lists the items
 * removed (before) and added (after), not index-by-index shifts (e.g. permission ids).
 */
export function diffRows(before: Obj, after: Obj): DiffRow[] {
  const rows = new Map<string, DiffRow>();
  for (const d of diff(before, after)) {
    const cut = d.path.findIndex((_, i) => Array.isArray(at(before, d.path.slice(0, i))) || Array.isArray(at(after, d.path.slice(0, i))));
    if (cut > 0) {
      const root = d.path.slice(0, cut);
      const key = root.join('.');
      if (rows.has(key)) continue;
      const list = (v: unknown) => (Array.isArray(v) ? v.map(show) : []);
      const [was, now] = [list(at(before, root)), list(at(after, root))];
      rows.set(key, {
        key,
        path: key,
        before: was.filter((x) => !now.includes(x)).join(', '),
        after: now.filter((x) => !was.includes(x)).join(', '),
      });
      continue;
    }
    const key = d.path.join('.');
    rows.set(key, { key, path: key, before: show('oldValue' in d ? d.oldValue : undefined), after: show('value' in d ? d.value : undefined) });
  }
  return [...rows.values()];
}

/** Before / after of an audit row as a list of changed paths (`before` / `after` fields of the record by default). */
export function AuditDiff({ value, record, beforeKey, afterKey }: DisplayProps) {
  const { env } = useRuntime();
  const src = (value && typeof value === 'object' && !Array.isArray(value) ? value : record ?? {}) as Obj;
  const [bk, ak] = [typeof beforeKey === 'string' ? beforeKey : 'before', typeof afterKey === 'string' ? afterKey : 'after'];
  // events without a record (sign-in, sign-out) have nothing to compare
  if (src[bk] == null && src[ak] == null) return <span>-</span>;
  const rows = diffRows(asObj(src[bk]), asObj(src[ak]));
  if (!rows.length) return <span>{env.t('runtime.diff.none')}</span>;
  return (
    <Table
      size="small"
      pagination={false}
      dataSource={rows}
      data-testid="audit-diff"
      columns={[
        { key: 'path', dataIndex: 'path', title: env.t('runtime.diff.field'), width: '30%' },
        { key: 'before', dataIndex: 'before', title: env.t('runtime.diff.before'), width: '35%', render: (v: string) => <del>{v}</del> },
        { key: 'after', dataIndex: 'after', title: env.t('runtime.diff.after'), width: '35%', render: (v: string) => <ins>{v}</ins> },
      ]}
    />
  );
}
