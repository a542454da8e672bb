/**
 * The peer: the same 100 × 12 list page rendered by amis from its own JSON schema (a CRUD
 * with a filter form, a toolbar button, 12 columns and pagination), through amis's published
 * SDK (its usual way to embed JSON pages; loaded by amis.html from bench/peers), with the same
 * in-memory data as our page.
 */
import { COLUMNS, ENUMS, pageOf } from './data.js';
import { fail, renderStart, waitForCount } from './measure.js';

interface AmisEmbed {
  embed(el: string, schema: unknown, props?: unknown, env?: unknown): unknown;
}
declare global {
  interface Window {
    amisRequire?: (name: string) => AmisEmbed;
  }
}

const q = new URLSearchParams(location.search);
const pageSize = Number(q.get('rows') ?? 100);
const total = Number(q.get('total') ?? 100_000);

const column = (c: (typeof COLUMNS)[number]) => {
  const base = { name: c.key, label: c.title, width: c.width, sortable: c.key === 'id' || c.key === 'created_at' };
  switch (c.kind) {
    case 'tag':
      return { ...base, type: 'mapping', map: Object.fromEntries(ENUMS[c.key].map((e) => [String(e.value), `<span class="label label-info">${e.label}</span>`])) };
    case 'bool':
      return { ...base, type: 'mapping', map: { true: 'Yes', false: 'No' } };
    case 'date':
      return { ...base, type: 'datetime', format: 'YYYY-MM-DD HH:mm:ss', valueFormat: 'YYYY-MM-DDTHH:mm:ss.SSSZ' };
    case 'link':
      return { ...base, type: 'link', href: '${' + c.key + '}', blank: true };
    case 'number':
      return { ...base, align: 'right' };
    default:
      return base;
  }
};

const schema = {
  type: 'page',
  body: {
    type: 'crud',
    api: 'get:/bench/shop/list',
    perPage: pageSize,
    syncLocation: false,
    filter: {
      title: '',
      mode: 'inline',
      body: [
        { type: 'input-text', name: 'keyword', label: 'Keyword', placeholder: 'Name or ID', clearable: true },
        { type: 'select', name: 'env', label: 'Environment', clearable: true, options: ['dev', 'pre', 'prod'] },
        { type: 'input-date-range', name: 'created', label: 'Created' },
      ],
    },
    headerToolbar: [{ type: 'button', label: 'Add', level: 'primary' }],
    footerToolbar: ['pagination'],
    columns: COLUMNS.map(column),
  },
};

const fetcher = ({ url }: { url: string }) => {
  const u = new URL(url, location.href);
  const page = Number(u.searchParams.get('page') ?? 1);
  const r = pageOf(total, page, pageSize);
  return new Promise((resolve) =>
    setTimeout(() => resolve({ status: 200, data: { status: 0, msg: '', data: { items: r.list, total: r.total } } }), 0),
  );
};

try {
  const amis = window.amisRequire!('amis/embed');
  renderStart();
  amis.embed('#root', schema, {}, { fetcher, isCancel: () => false, theme: 'cxd' });
  void waitForCount('.cxd-Table-table tbody tr[data-index]', pageSize);
} catch (err) {
  fail(err);
}
