/**
 * The frame of the three session viewers: filters (shop, time range, channel / direction,
 * keyword) above a paged session list; a picked session opens the detail modal (the spec's
 * session detail modal: its details and transcript). Filters, page and the picked session live
 * in the URL (./url-filters.ts), so a reload or a shared link reopens the same modal.
 */
import { Button, Card, Checkbox, Empty, List, Modal, Pagination, Space, Spin, theme, Typography } from 'antd';
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useUrlQuery } from '../../runtime/query.js';
import { useShell } from '../../runtime/shell.js';
import { listParams, mailAccountOptions, shopOptions, type MailAccountOption, type Page, type ShopOption } from './api.js';
import { SessionFilterForm } from './SessionFilterForm.js';
import { formFromQuery, queryFromForm, stateFromQuery, type FormValues } from './url-filters.js';

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
  /** buttons in the detail modal's footer (e.g. the chat session's Train), given the detail */
  detailActions?(d: D): ReactNode;
  /** row selection and its batch buttons (the chat list's Batch status), given the selected ids and what to run after a batch */
  batch?(ctx: { ids: number[]; done(): void }): ReactNode;
}

const PAGE_SIZE = 20;

export function SessionViewer<S extends { id: number }, D>(cfg: ViewerConfig<S, D>) {
  const env = useShell().env;
  const { token } = theme.useToken();
  const query = useUrlQuery();
  const extraKey = cfg.extra?.key ?? null;
  const { filters, page, session } = useMemo(() => stateFromQuery(query.values, extraKey), [query.values, extraKey]);
  const formValues = useMemo(() => formFromQuery(query.values, extraKey), [query.values, extraKey]);
  const [shops, setShops] = useState<ShopOption[]>([]);
  const [accounts, setAccounts] = useState<MailAccountOption[]>([]);
  const [data, setData] = useState<Page<S> | null>(null);
  const [loading, setLoading] = useState(false);
  const [detail, setDetail] = useState<D | null>(null);
  const [detailLoading, setDetailLoading] = useState(false);
  const [reloads, setReloads] = useState(0);
  const reload = useCallback(() => setReloads((n) => n + 1), []);
  // the picked session (the URL's): its detail modal is open
  const selected = session ?? null;
  const { set: setQuery } = query;
  const select = useCallback((id: number) => setQuery({ session: String(id) }, { replace: true }), [setQuery]);
  const close = useCallback(() => setQuery({ session: undefined }, { replace: true }), [setQuery]);
  // the rows picked for a batch (chat): cleared when the filters or the page change, and after a batch
  const [picked, setPicked] = useState<number[]>([]);
  const filterKey = JSON.stringify(filters);
  useEffect(() => setPicked([]), [filterKey, page]);
  const toggle = useCallback((id: number, on: boolean) => setPicked((p) => (on ? [...p, id] : p.filter((x) => x !== id))), []);
  const batchDone = useCallback(() => {
    setPicked([]);
    reload();
  }, [reload]);
  const search = useCallback((v: FormValues) => setQuery(queryFromForm(v, extraKey)), [setQuery, extraKey]);

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
      .get<Page<S>>(cfg.listApi, listParams(filters, extraKey, page, PAGE_SIZE))
      .then((p) => live && setData(p))
      .catch(() => live && setData({ list: [], total: 0, page, page_size: PAGE_SIZE }))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [env.http, cfg.listApi, extraKey, filters, page, reloads]);

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

  return (
    <div data-testid={cfg.testId}>
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {cfg.title}
      </Typography.Title>
      <SessionFilterForm
        env={env}
        values={formValues}
        shops={shops}
        accounts={cfg.mailAccounts ? accounts : null}
        extra={cfg.extra}
        onSearch={search}
        toolbar={cfg.toolbar?.({ shopId: filters.shop_id, reload })}
      />
      {cfg.batch ? (
        <Space style={{ marginBottom: 8 }} data-testid="session-bulk-bar">
          <Typography.Text data-testid="session-selected-count">{env.t('session.batchStatus.selected', { count: picked.length })}</Typography.Text>
          {picked.length ? (
            <Button size="small" type="link" onClick={() => setPicked([])}>
              {env.t('session.batchStatus.clear')}
            </Button>
          ) : null}
          {cfg.batch({ ids: picked, done: batchDone })}
        </Space>
      ) : null}
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
                data-id={s.id}
                onClick={() => select(s.id)}
                style={{
                  cursor: 'pointer',
                  padding: '8px 12px',
                  background: s.id === selected ? token.colorPrimaryBg : undefined,
                }}
              >
                {cfg.batch ? (
                  <Checkbox
                    data-testid="session-pick"
                    aria-label={env.t('session.batchStatus.select')}
                    checked={picked.includes(s.id)}
                    onClick={(e) => e.stopPropagation()}
                    onChange={(e) => toggle(s.id, e.target.checked)}
                    style={{ marginInlineEnd: 8 }}
                  />
                ) : null}
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
            onChange={(p) => setQuery({ page: p > 1 ? String(p) : undefined, session: undefined })}
            showTotal={(total) => env.t('session.viewer.total', { total })}
          />
        </div>
      </Card>
      <Modal
        open={selected != null}
        title={env.t('session.viewer.detailTitle')}
        width={960}
        onCancel={close}
        footer={detail && cfg.detailActions ? cfg.detailActions(detail) : null}
        destroyOnHidden
        styles={{ body: { padding: 0 } }}
      >
        {/* a scrolling region takes the keyboard focus, so it scrolls without a mouse */}
        <div data-testid="session-pane" style={{ maxHeight: 'calc(100vh - 240px)', minHeight: 240, overflowY: 'auto' }} tabIndex={0}>
          {detailLoading && !detail ? (
            <Spin />
          ) : detail ? (
            cfg.renderDetail(detail)
          ) : (
            <Empty description={env.t('session.viewer.loadError')} />
          )}
        </div>
      </Modal>
    </div>
  );
}
