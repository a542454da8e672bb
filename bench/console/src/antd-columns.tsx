import { Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import dayjs from 'dayjs';
import { COLUMNS, ENUMS, type BenchRow } from './data.js';

/** The 12 columns written directly in antd: what a developer would hand-write for this page. */
export function antdColumns(): ColumnsType<BenchRow> {
  return COLUMNS.map((c) => {
    const base = { key: c.key, dataIndex: c.key, title: c.title, width: c.width, sorter: c.key === 'id' || c.key === 'created_at' };
    switch (c.kind) {
      case 'tag': {
        const byValue = new Map(ENUMS[c.key].map((e) => [e.value, e]));
        return { ...base, render: (v: string | number) => { const e = byValue.get(v); return e ? <Tag color={e.color}>{e.label}</Tag> : v; } };
      }
      case 'bool':
        return { ...base, render: (v: boolean) => <Tag color={v ? 'success' : 'default'}>{v ? 'Yes' : 'No'}</Tag> };
      case 'date':
        return { ...base, render: (v: string) => dayjs(v).format('YYYY-MM-DD HH:mm:ss') };
      case 'link':
        return { ...base, ellipsis: true, render: (v: string) => <a href={v} target="_blank" rel="noreferrer">{v}</a> };
      case 'number':
        return { ...base, align: 'right' as const };
      default:
        return { ...base, ellipsis: true };
    }
  });
}
