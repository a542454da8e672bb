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

/** Before / after of an audit row as a list of changed paths (`before` / `after` fields of the record by default). */
export function AuditDiff({ value, record, beforeKey, afterKey }: DisplayProps) {
  const { env } = useRuntime();
  const src = (value && typeof value === 'object' && !Array.isArray(value) ? value : record ?? {}) as Obj;
  const before = asObj(src[typeof beforeKey === 'string' ? beforeKey : 'before']);
  const after = asObj(src[typeof afterKey === 'string' ? afterKey : 'after']);
  const rows = diff(before, after).map((d, i) => ({
    key: i,
    path: d.path.join('.'),
    type: d.type,
    before: show('oldValue' in d ? d.oldValue : undefined),
    after: show('value' in d ? d.value : undefined),
  }));
  if (!rows.length) return <span>{env.t('runtime.diff.none')}</span>;
  return (
    <Table
      size="small"
      pagination={false}
      dataSource={rows}
      columns={[
        { key: 'path', dataIndex: 'path', title: env.t('runtime.diff.field') },
        { key: 'before', dataIndex: 'before', title: env.t('runtime.diff.before'), render: (v: string) => <del>{v}</del> },
        { key: 'after', dataIndex: 'after', title: env.t('runtime.diff.after'), render: (v: string) => <ins>{v}</ins> },
      ]}
    />
  );
}
