import { Alert, Space, Table } from 'antd';
import type { CheckboxProps } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useContext, useEffect, useMemo, useRef, type Key } from 'react';
import { useColumnSettings } from '../../runtime/column-settings.js';
import { ParentReloadContext, useRuntime } from '../../runtime/context.js';
import { nextSortKeys, useListController, type Row } from '../../runtime/controllers/use-list-controller.js';
import { useStable } from '../../runtime/controllers/use-stable.js';
import { useMemoryQuery, useUrlQuery, type QueryPort } from '../../runtime/query.js';
import type { ListSchema, LoadedSchema } from '../../runtime/types.js';
import { ActionButtons, ROW_LINKS_SHOWN } from '../actions/ActionButtons.js';
import { actionColumnWidth } from '../actions/width.js';
import { isShown } from '../../runtime/actions.js';
import { LiveMark } from '../LiveMark.js';
import { PlainCard } from '../PlainCard.js';
import { useFormHost } from '../form/FormHost.js';
import { useInspect } from '../schema-page/inspect.js';
import { buildColumns, visibleColumns } from './columns.js';
import { BulkBar } from './BulkBar.js';
import { ColumnSettingsButton } from './ColumnSettingsButton.js';
import { FilterForm } from './FilterForm.js';

interface Props {
  loaded: LoadedSchema<ListSchema>;
  params: Record<string, unknown>;
  /** embedded lists (detail sections, tabs) keep their state in memory, not the URL */
  embedded?: boolean;
}

export function ListView(props: Props) {
  const url = useUrlQuery();
  const memory = useMemoryQuery();
  return <ListBody {...props} query={props.embedded ? memory : url} />;
}

function ListBody({ loaded, params, query, embedded }: Props & { query: QueryPort }) {
  const { env, registry, user } = useRuntime();
  const { openForm } = useFormHost();
  const schema = loaded.schema;
  const parent = useContext(ParentReloadContext);
  const ctl = useListController(schema, { env, query, params, user, parentRefreshes: !!(embedded && parent?.live) });
  useParentReload(embedded ? parent?.loads : undefined, ctl.refreshQuietly);
  useInspect({ query: query.values, params, total: ctl.total, rows: ctl.rows.slice(0, 20), filters: ctl.filters });

  // by value: a selection or filter change that leaves the same columns visible keeps the compiled columns
  const shown = useStable(useMemo(() => visibleColumns(schema.columns, env, ctl.scope), [schema, env, ctl.scope]));
  const keys = shown.map((c) => c.key);
  const defaultHidden = shown.filter((c) => c.defaultHidden).map((c) => c.key);
  const cols = useColumnSettings(user?.id, loaded.id, keys, defaultHidden);
  const host = (scope: Record<string, unknown>) => ({ env, scope, refresh: ctl.refresh, openForm });

  // the action column as wide as the widest row's links (a fixed column would clip them)
  const actionsWidth = useMemo(() => {
    const actions = schema.rowActions ?? [];
    if (!actions.length) return undefined;
    const rows = ctl.rows.length ? ctl.rows : [undefined];
    let widest = actionColumnWidth([env.t('runtime.list.actions')], null);
    for (const row of rows) {
      const scope = row ? { ...ctl.scope, record: row, row } : ctl.scope;
      const labels = actions.filter((a) => (row ? isShown(a, env, scope) : !a.permission || env.can(a.permission))).map((a) => env.t(a.label));
      const folds = labels.length > ROW_LINKS_SHOWN;
      widest = Math.max(widest, actionColumnWidth(folds ? labels.slice(0, ROW_LINKS_SHOWN - 1) : labels, folds ? env.t('runtime.list.more') : null));
    }
    return widest;
  }, [schema.rowActions, ctl.rows, ctl.scope, env]);
  // compiled once per schema version, locale, column settings and sort state (not per render):
  // each column's cell function is built here, so a cell costs what a hand-written column's does
  const { sorters } = ctl; // memoised by the controller: changes only with the sort state
  const byParams = !!schema.data.sortParams;
  const orderKey = cols.order.join(',');
  const dataColumns = useMemo(
    () =>
      buildColumns(shown, {
        env,
        registry,
        enums: loaded.enums,
        settings: cols.settings,
        order: orderKey.split(','),
        sorter: { field: sorters[0]?.field, order: sorters[0]?.order },
        sorters: byParams ? undefined : sorters,
      }),
    [shown, env, registry, loaded.enums, cols.settings, orderKey, sorters, byParams],
  );
  const { scope, refresh } = ctl;
  const actionColumn = useMemo(() => {
    if (!schema.rowActions?.length) return null;
    const actions = schema.rowActions;
    return {
      key: '__actions',
      title: env.t('runtime.list.actions'),
      fixed: 'right' as const,
      width: actionsWidth,
      render: (_: unknown, row: Row) => <ActionButtons variant="link" actions={actions} host={{ env, scope: { ...scope, record: row, row }, refresh, openForm }} />,
    };
  }, [schema.rowActions, env, actionsWidth, scope, refresh, openForm]);
  const columns: ColumnsType<Row> = useMemo(() => (actionColumn ? [...dataColumns, actionColumn] : dataColumns), [dataColumns, actionColumn]);
  // the table is as wide as its columns (a column without a width counts 120 px or its title's
  // floor, the selection
  // 32; a schema's scrollX is a floor): on a narrow window it scrolls, so no column is squeezed
  // below its width or ends up under the fixed action column
  // a table wider than its box scrolls: its scroll region takes keyboard focus, so it can be
  // scrolled without a mouse (axe: scrollable-region-focusable)
  const tableBox = useRef<HTMLDivElement>(null);
  useEffect(() => {
    for (const el of tableBox.current?.querySelectorAll('.ant-table-content, .ant-table-body') ?? []) el.setAttribute('tabindex', '0');
  });
  const tableWidth = useMemo(
    () => columns.reduce((sum, c) => sum + (typeof c.width === 'number' ? c.width : Math.max(120, c.minWidth ?? 0)), schema.rowSelection ? 32 : 0),
    [columns, schema.rowSelection],
  );

  const selection = schema.rowSelection
    ? {
        type: schema.rowSelection,
        selectedRowKeys: ctl.selectedKeys,
        onChange: (k: Key[], rows: Row[]) => ctl.setSelection(k as Array<string | number>, rows),
        // each row's checkbox has a name (axe: label)
        getCheckboxProps: (row: Row) => ({ 'aria-label': env.t('runtime.list.selectRow', { id: String(row[ctl.rowKey] ?? '') }) }) as CheckboxProps,
      }
    : undefined;
  const childrenKey = schema.data.childrenKey;
  const body = (
    <>
      {schema.filters && (
        <FilterForm schema={schema.filters} shown={schema.filtersShown} values={ctl.filters} onSearch={ctl.setFilters} onReset={ctl.resetFilters} scope={ctl.scope} />
      )}
      <div style={{ display: 'flex', justifyContent: 'space-between', marginBottom: 12, gap: 8 }}>
        <Space wrap>
          <ActionButtons actions={schema.toolbar} host={host(ctl.scope)} />
          {schema.batchActions?.length && schema.rowSelection ? (
            <BulkBar env={env} ctl={ctl} actions={schema.batchActions} selectAllMatching={schema.selectAllMatching} host={host} />
          ) : null}
        </Space>
        <Space>
          <LiveMark env={env} live={ctl.live} />
          {schema.columnSettings !== false && (
            <ColumnSettingsButton env={env} columns={shown} order={cols.order} settings={cols.settings} save={cols.save} reset={cols.reset} />
          )}
        </Space>
      </div>
      {ctl.error ? <Alert type="error" showIcon style={{ marginBottom: 12 }} message={String((ctl.error as Error)?.message ?? ctl.error)} /> : null}
      <div ref={tableBox}>
        <Table<Row>
          data-testid={`list-${loaded.id}`}
          rowKey={ctl.rowKey}
          loading={ctl.loading}
          columns={columns}
          dataSource={ctl.rows}
          rowSelection={selection}
          virtual={ctl.virtual}
          scroll={ctl.virtual ? { x: schema.scrollX ?? 1200, y: 600 } : { x: Math.max(schema.scrollX ?? 0, tableWidth) }}
          expandable={childrenKey ? { childrenColumnName: childrenKey } : undefined}
          locale={schema.emptyText ? { emptyText: env.t(schema.emptyText) } : undefined}
          pagination={
            ctl.paged
              ? {
                  current: ctl.page,
                  pageSize: ctl.pageSize,
                  total: ctl.total,
                  showSizeChanger: true,
                  pageSizeOptions: schema.pagination ? schema.pagination.pageSizeOptions : undefined,
                  showTotal: (total) => env.t(ctl.totalEstimated ? 'runtime.list.totalEstimated' : 'runtime.list.total', { total }),
                }
              : false
          }
          onChange={(pagination, _filters, sorter, extra) => {
            if (extra.action === 'paginate') ctl.setPage(pagination.current ?? 1, pagination.pageSize);
            if (extra.action === 'sort') {
              const states = (Array.isArray(sorter) ? sorter : [sorter]).map((s) => ({ field: s?.columnKey ? String(s.columnKey) : undefined, order: s?.order }));
              ctl.setSorters(nextSortKeys(ctl.sorters, states));
            }
          }}
        />
      </div>
    </>
  );
  if (embedded) return <div data-schema-id={loaded.id}>{body}</div>;
  return (
    <PlainCard title={env.t(schema.title)} data-schema-id={loaded.id}>
      {body}
    </PlainCard>
  );
}

/** An embedded list reloads quietly each time the page around it reloads (not on its first load). */
function useParentReload(loads: number | undefined, reload: () => Promise<void>) {
  const seen = useRef(loads);
  useEffect(() => {
    if (loads === undefined || loads === seen.current) return;
    seen.current = loads;
    void reload();
  }, [loads, reload]);
}
