/**
 * Baseline: the 100 × 12 list page hand-written directly in antd (filter form, toolbar, table,
 * pagination). Opened with `?rows=10000` it is the virtual-table baseline: the same page with
 * antd's `virtual` Table (as the schema list switches to at its virtualThreshold).
 */
import { Button, Card, ConfigProvider, DatePicker, Form, Input, Select, Space, Table } from 'antd';
import { useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { antdColumns } from './antd-columns.js';
import type { BenchRow } from './data.js';
import { fetchPage, sizeFromUrl } from './fake-api.js';
import { fail, renderStart, waitForCount } from './measure.js';

const { rows: pageSize, total } = sizeFromUrl(100);
const columns = antdColumns();
const virtual = pageSize >= 1000;

function ListPage() {
  const [rows, setRows] = useState<BenchRow[]>([]);
  const [page, setPage] = useState(1);
  const [loading, setLoading] = useState(true);
  useEffect(() => {
    setLoading(true);
    void fetchPage(page, pageSize, total).then((r) => {
      setRows(r.list);
      setLoading(false);
    });
  }, [page]);
  return (
    <Card title="Shops (bench)">
      <Form layout="inline" style={{ marginBottom: 16 }}>
        <Form.Item name="keyword" label="Keyword">
          <Input allowClear placeholder="Name or ID" />
        </Form.Item>
        <Form.Item name="env" label="Environment">
          <Select allowClear style={{ width: 160 }} options={[{ value: 'dev', label: 'dev' }, { value: 'pre', label: 'pre' }, { value: 'prod', label: 'prod' }]} />
        </Form.Item>
        <Form.Item name="created" label="Created">
          <DatePicker.RangePicker />
        </Form.Item>
        <Form.Item>
          <Space>
            <Button type="primary">Search</Button>
            <Button>Reset</Button>
          </Space>
        </Form.Item>
      </Form>
      <div style={{ display: 'flex', justifyContent: 'space-between', marginBottom: 12, gap: 8 }}>
        <Space wrap>
          <Button type="primary">Add</Button>
        </Space>
      </div>
      <Table<BenchRow>
        rowKey="id"
        columns={columns}
        dataSource={rows}
        loading={loading}
        virtual={virtual}
        scroll={virtual ? { x: 1800, y: 600 } : { x: 1800 }}
        pagination={{ current: page, pageSize, total, showSizeChanger: true, showTotal: (t) => `${t} in total`, onChange: (p) => setPage(p) }}
      />
    </Card>
  );
}

try {
  const root = createRoot(document.getElementById('root')!);
  renderStart();
  root.render(
    <ConfigProvider>
      <ListPage />
    </ConfigProvider>,
  );
  // a virtual table renders only the rows on screen: "rendered" is the first screenful
  void (virtual ? waitForCount('.ant-table-tbody-virtual .ant-table-row', 10) : waitForCount('tr.ant-table-row', pageSize));
} catch (err) {
  fail(err);
}
