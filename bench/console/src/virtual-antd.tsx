/** Baseline: 10,000 rows in antd's own virtual Table (`virtual`, fixed height), no schema runtime. */
import { ConfigProvider, Table } from 'antd';
import { useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { antdColumns } from './antd-columns.js';
import type { BenchRow } from './data.js';
import { fetchAll, sizeFromUrl } from './fake-api.js';
import { fail, renderStart, waitForCount } from './measure.js';

const { rows: n } = sizeFromUrl(10_000);
const columns = antdColumns();

function VirtualPage() {
  const [rows, setRows] = useState<BenchRow[]>([]);
  useEffect(() => void fetchAll(n).then(setRows), []);
  return (
    <div style={{ padding: 16 }}>
      <Table<BenchRow> virtual rowKey="id" columns={columns} dataSource={rows} scroll={{ x: 1800, y: 600 }} pagination={false} />
    </div>
  );
}

try {
  const root = createRoot(document.getElementById('root')!);
  renderStart();
  root.render(
    <ConfigProvider>
      <VirtualPage />
    </ConfigProvider>,
  );
  // rendered = the first screenful of rows is in the DOM (a virtual table renders only those)
  void waitForCount('.ant-table-tbody-virtual .ant-table-row', 10);
} catch (err) {
  fail(err);
}
