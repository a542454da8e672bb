import { Button, Modal, Space, Table, Tag, Typography } from 'antd';
import type { ImportReport, ImportReportRow, ImportRowStatus } from '../../runtime/actions.js';
import type { RuntimeEnv } from '../../runtime/env.js';

const COLORS: Record<ImportRowStatus, string> = {
  created: 'green',
  updated: 'blue',
  unchanged: 'default',
  skipped: 'default',
  rejected: 'red',
  failed: 'red',
  done: 'green',
  refused: 'red',
};
const ORDER: ImportRowStatus[] = ['created', 'updated', 'unchanged', 'skipped', 'rejected', 'failed', 'done', 'refused'];

/**
 * The per-row result of an import (upload action whose reply has rows: order, session and
 * Douyin product imports): the counts, then one line per row with its status and reasons.
 */
export function ImportReportModal({ report, env, onClose }: { report: ImportReport; env: RuntimeEnv; onClose(): void }) {
  const status = (s: ImportRowStatus) => env.t(`runtime.importReport.status.${s}`);
  const counts = ORDER.filter((s) => report.counts[s] !== undefined);
  return (
    <Modal
      open
      width={820}
      title={env.t(report.batch ? 'runtime.batchReport.title' : 'runtime.importReport.title')}
      modalRender={(node) => <div data-testid="import-report">{node}</div>}
      onCancel={onClose}
      footer={
        <Button type="primary" onClick={onClose}>
          {env.t('runtime.form.close')}
        </Button>
      }
    >
      <Space wrap style={{ marginBottom: 12 }}>
        {report.file && <Typography.Text strong>{report.file}</Typography.Text>}
        {report.total !== undefined && <span>{env.t(report.batch ? 'runtime.batchReport.total' : 'runtime.importReport.total', { total: report.total })}</span>}
        {counts.map((s) => (
          <Tag key={s} color={COLORS[s]} data-count={s}>
            {status(s)} {report.counts[s]}
          </Tag>
        ))}
      </Space>
      <Table<ImportReportRow>
        size="small"
        rowKey={(r) => `${r.row}-${r.status}`}
        dataSource={report.rows}
        pagination={report.rows.length > 20 ? { pageSize: 20, showSizeChanger: false } : false}
        scroll={{ y: 420 }}
        columns={[
          { key: 'row', dataIndex: 'row', title: env.t(report.batch ? 'runtime.batchReport.row' : 'runtime.importReport.row'), width: 70 },
          ...(report.batch ? [] : [{ key: 'ref', dataIndex: 'ref', title: env.t('runtime.importReport.ref'), width: 160, render: (v: string | null) => v ?? '—' }]),
          {
            key: 'status',
            dataIndex: 'status',
            title: env.t('runtime.importReport.status.title'),
            width: 110,
            render: (s: ImportRowStatus) => <Tag color={COLORS[s]}>{status(s)}</Tag>,
          },
          {
            key: 'reasons',
            dataIndex: 'reasons',
            title: env.t('runtime.importReport.reason'),
            render: (r: string[]) => (r.length ? r.map((x, i) => <div key={i}>{x}</div>) : null),
          },
        ]}
      />
    </Modal>
  );
}
