/**
 * The data every console page of the bench shows: deterministic rows of 12 columns (a
 * shop-like record), so the schema page, the hand-written antd page and the amis page render
 * exactly the same values.
 */
export interface BenchRow {
  id: number;
  name: string;
  email: string;
  country_code: string;
  env: string;
  type: number;
  plugin_status: number;
  ai_status: number;
  amount: number;
  is_test: boolean;
  link: string;
  created_at: string;
}

export interface ColumnSpec {
  key: keyof BenchRow;
  title: string;
  kind: 'text' | 'tag' | 'number' | 'bool' | 'date' | 'link';
  width: number;
}

export const COLUMNS: ColumnSpec[] = [
  { key: 'id', title: 'ID', kind: 'number', width: 80 },
  { key: 'name', title: 'Name', kind: 'text', width: 180 },
  { key: 'email', title: 'Email', kind: 'text', width: 220 },
  { key: 'country_code', title: 'Country', kind: 'text', width: 90 },
  { key: 'env', title: 'Environment', kind: 'tag', width: 110 },
  { key: 'type', title: 'Type', kind: 'tag', width: 110 },
  { key: 'plugin_status', title: 'Plugin', kind: 'tag', width: 110 },
  { key: 'ai_status', title: 'AI', kind: 'tag', width: 90 },
  { key: 'amount', title: 'Amount', kind: 'number', width: 110 },
  { key: 'is_test', title: 'Test shop', kind: 'bool', width: 90 },
  { key: 'link', title: 'Link', kind: 'link', width: 220 },
  { key: 'created_at', title: 'Created', kind: 'date', width: 170 },
];

/** Enum labels and tag colours (the schema page reads the same ones from its enum files). */
export const ENUMS: Record<string, Array<{ value: string | number; label: string; color: string }>> = {
  env: [
    { value: 'dev', label: 'dev', color: 'default' },
    { value: 'pre', label: 'pre', color: 'orange' },
    { value: 'prod', label: 'prod', color: 'green' },
  ],
  type: [
    { value: 1, label: 'Shopify', color: 'blue' },
    { value: 2, label: 'Douyin', color: 'purple' },
    { value: 3, label: 'Shopline', color: 'cyan' },
    { value: 4, label: 'Custom site', color: 'default' },
  ],
  plugin_status: [
    { value: 0, label: 'Not installed', color: 'default' },
    { value: 1, label: 'Enabled', color: 'green' },
    { value: 2, label: 'Disabled', color: 'red' },
  ],
  ai_status: [
    { value: 0, label: 'Off', color: 'default' },
    { value: 1, label: 'On', color: 'green' },
  ],
};

const COUNTRIES = ['US', 'CN', 'GB', 'DE', 'JP', 'FR', 'CA', 'AU'];
const ENVS = ['dev', 'pre', 'prod'];

export function makeRows(n: number, offset = 0): BenchRow[] {
  const rows: BenchRow[] = new Array(n);
  const t0 = Date.UTC(2026, 0, 1);
  for (let i = 0; i < n; i++) {
    const id = offset + i + 1;
    rows[i] = {
      id,
      name: `Shop ${id} ${['Outfitters', 'Gadgets', 'Home', 'Beauty', 'Sports'][id % 5]}`,
      email: `owner${id}@merchant${id % 97}.example.com`,
      country_code: COUNTRIES[id % COUNTRIES.length],
      env: ENVS[id % 3],
      type: (id % 4) + 1,
      plugin_status: id % 3,
      ai_status: id % 2,
      amount: Math.round(((id * 7919) % 100000) * 1.37) / 100,
      is_test: id % 7 === 0,
      link: `https://shop${id}.example.com`,
      created_at: new Date(t0 + id * 3_600_000).toISOString(),
    };
  }
  return rows;
}

/** A page reply as the API sends it. */
export function pageOf(total: number, page: number, pageSize: number) {
  const start = (page - 1) * pageSize;
  return { list: makeRows(Math.max(0, Math.min(pageSize, total - start)), start), total, page, page_size: pageSize };
}
