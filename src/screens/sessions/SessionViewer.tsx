/**
 * The frame of the three session viewers: filters (shop, time range, channel / direction,
 * keyword) above a paged session list, beside the conversation pane of the picked session.
 */
import { Button, Card, Col, DatePicker, Empty, Form, Input, List, Pagination, Row, Select, Space, Spin, theme, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { useShell } from '../../runtime/shell.js';
import { listParams, mailAccountOptions, shopOptions, type MailAccountOption, type Page, type SessionFilters, type ShopOption } from './api.js';

export interface ViewerConfig<S extends { id: number }, D> {
  testId: string;
  title: string;
  listApi: string;
  detailApi: string;
  /** a mail-account filter (mail sessions): the threads of that account's shop */
  mailAccounts?: boolean;
  /** the channel / direction filter: query key, label and options */
  extra?: { key: string; label: string; options: Array<{ value: string; label: string }> };
  renderItem(s: S): ReactNode;
  renderDetail(d: D): ReactNode;
  /** buttons after search / reset (e.g. the chat import), given the shop filter and a list reload */
  toolbar?(ctx: { shopId?: number; reload(): void }): ReactNode;
}

const PAGE_SIZE = 20;

export function SessionViewer<S extends { id: number }, D>(cfg: ViewerConfig<S, D>) {
  const env = useShell().env;
  const { token } = theme.useToken();
  const [form] = Form.useForm();
  const [shops, setShops] = useState<ShopOption[]>([]);
  const [accounts, setAccounts] = useState<MailAccountOption[]>([]);
  const [filters, setFilters] = useState<SessionFilters>({});
  const [page, setPage] = useState(1);
  const [data, setData] = useState<Page<S> | null>(null);
  const [loading, setLoading] = useState(false);
  const [selected, setSelected] = useState<number | null>(null);
  const [detail, setDetail] = useState<D | null>(null);
  const [detailLoading, setDetailLoading] = useState(false);
  const [reloads, setReloads] = useState(0);
  const reload = useCallback(() => setReloads((n) => n + 1), []);

  useEffect(() => {
    shopOptions(env.http).then(setShops, () => setShops([]));
  }, [env.http]);

  useEffect(() => {
    if (cfg.mailAccounts) mailAccountOptions(env.http).then(setAccounts, () => setAccounts([]));
  }, [env.http, cfg.mailAccounts]);

  useEffect(() => {
    let live = true;
    setLoading(true);
    env.http
      .get<Page<S>>(cfg.listApi, listParams(filters, cfg.extra?.key ?? null, page, PAGE_SIZE))
      .then((p) => {
        if (!live) return;
        setData(p);
        setSelected((cur) => (cur && p.list.some((s) => s.id === cur) ? cur : (p.list[0]?.id ?? null)));
      })
      .catch(() => live && setData({ list: [], total: 0, page, page_size: PAGE_SIZE }))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [env.http, cfg.listApi, cfg.extra?.key, filters, page, reloads]);

  useEffect(() => {
    if (!selected) return setDetail(null);
    let live = true;
    setDetailLoading(true);
    env.http
      .get<D>(cfg.detailApi, { id: selected })
      .then((d) => live && setDetail(d))
      .catch(() => live && setDetail(null))
      .finally(() => live && setDetailLoading(false));
    return () => {
      live = false;
    };
  }, [env.http, cfg.detailApi, selected]);

  const search = useCallback((v: { shop_id?: number; mail_account_id?: number; range?: [Dayjs, Dayjs] | null; extra?: string; keyword?: string }) => {
    setPage(1);
    setFilters({
      shop_id: v.shop_id,
      mail_account_id: v.mail_account_id,
      extra: v.extra,
      keyword: v.keyword,
      from: v.range?.[0]?.startOf('day').toISOString(),
      to: v.range?.[1]?.endOf('day').toISOString(),
    });
  }, []);

  return (
    <div data-testid={cfg.testId}>
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {cfg.title}
      </Typography.Title>
      <Form form={form} layout="inline" onFinish={search} style={{ marginBottom: 12, rowGap: 8 }}>
        <Form.Item name="shop_id" label={env.t('session.viewer.shop')}>
          <Select
            allowClear
            showSearch
            optionFilterProp="label"
            style={{ width: 220 }}
            options={shops.map((s) => ({ value: s.id, label: s.label }))}
          />
        </Form.Item>
        {cfg.mailAccounts && (
          <Form.Item name="mail_account_id" label={env.t('session.viewer.mailAccount')}>
            <Select
              allowClear
              showSearch
              optionFilterProp="label"
              style={{ width: 260 }}
              data-testid="mail-account-filter"
              options={accounts.map((a) => ({ value: a.id, label: `${a.email} · ${a.shop_name ?? `#${a.shop_id}`}` }))}
            />
          </Form.Item>
        )}
        <Form.Item name="range" label={env.t('session.viewer.timeRange')}>
          <DatePicker.RangePicker />
        </Form.Item>
        {cfg.extra && (
          <Form.Item name="extra" label={cfg.extra.label}>
            <Select allowClear style={{ width: 150 }} options={cfg.extra.options} />
          </Form.Item>
        )}
        <Form.Item name="keyword" label={env.t('session.viewer.keyword')}>
          <Input allowClear placeholder={env.t('session.viewer.keywordPh')} style={{ width: 220 }} />
        </Form.Item>
        <Space>
          <Button type="primary" htmlType="submit">
            {env.t('session.viewer.search')}
          </Button>
          <Button
            onClick={() => {
              form.resetFields();
              search({});
            }}
          >
            {env.t('session.viewer.reset')}
          </Button>
          {cfg.toolbar?.({ shopId: filters.shop_id, reload })}
        </Space>
      </Form>
      <Row gutter={12} wrap={false}>
        <Col flex="360px" style={{ minWidth: 300 }}>
          <Card size="small" styles={{ body: { padding: 0 } }}>
            <div style={{ height: 'calc(100vh - 300px)', minHeight: 360, overflowY: 'auto' }} tabIndex={0} data-testid="session-list">
              <List
                loading={loading}
                dataSource={data?.list ?? []}
                locale={{ emptyText: env.t('session.viewer.noSessions') }}
                renderItem={(s) => (
                  <List.Item
                    key={s.id}
                    data-testid="session-item"
                    onClick={() => setSelected(s.id)}
                    style={{
                      cursor: 'pointer',
                      padding: '8px 12px',
                      background: s.id === selected ? token.colorPrimaryBg : undefined,
                    }}
                  >
                    {cfg.renderItem(s)}
                  </List.Item>
                )}
              />
            </div>
            <div style={{ padding: 8, textAlign: 'right' }}>
              <Pagination
                size="small"
                simple
                showSizeChanger={false}
                current={page}
                pageSize={PAGE_SIZE}
                total={data?.total ?? 0}
                onChange={setPage}
                showTotal={(total) => env.t('session.viewer.total', { total })}
              />
            </div>
          </Card>
        </Col>
        <Col flex="auto" style={{ minWidth: 0 }}>
          <Card size="small" data-testid="session-pane">
            {/* a scrolling region takes the keyboard focus, so it scrolls without a mouse */}
            <div style={{ height: 'calc(100vh - 260px)', minHeight: 400, overflowY: 'auto' }} tabIndex={0}>
              {detailLoading && !detail ? (
                <Spin />
              ) : detail ? (
                cfg.renderDetail(detail)
              ) : (
                <Empty description={env.t('session.viewer.empty')} />
              )}
            </div>
          </Card>
        </Col>
      </Row>
    </div>
  );
}
