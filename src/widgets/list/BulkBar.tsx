/**
 * The bulk bar of a list with row selection: how many rows are selected, "select all N matching"
 * (when the schema offers it: the batch then acts on the list's filter, not only on the page's
 * rows, up to BATCH_SELECT_CAP — the server's cap), clear, and the batch actions. It stays
 * mounted while nothing is selected (hidden), so a batch's per-row report outlives the rows it
 * removed from the selection.
 */
import { Button, Space } from 'antd';
import { useEffect, useState } from 'react';
import type { ActionHost } from '../../runtime/actions.js';
import type { ListController } from '../../runtime/controllers/use-list-controller.js';
import type { RuntimeEnv } from '../../runtime/env.js';
import type { ActionSpec } from '../../runtime/types.js';
import { ActionButtons } from '../actions/ActionButtons.js';
import { BATCH_ACTION_CAP } from '../../contract/limits.js';

/** the most rows one batch call acts on (the server's cap: src/contract/limits.ts) */
export const BATCH_SELECT_CAP = BATCH_ACTION_CAP;

interface Props {
  env: RuntimeEnv;
  ctl: ListController;
  actions: ActionSpec[];
  selectAllMatching?: boolean;
  host(scope: Record<string, unknown>): Omit<ActionHost, 'progress' | 'pickFile' | 'showReport'>;
}

export function BulkBar({ env, ctl, actions, selectAllMatching, host }: Props) {
  const [all, setAll] = useState(false);
  const n = ctl.selectedKeys.length;
  const filterKey = JSON.stringify(ctl.matchFilter);
  // a new filter or an emptied selection ends "all matching"
  useEffect(() => setAll(false), [filterKey]);
  useEffect(() => {
    if (!n) setAll(false);
  }, [n]);
  const count = all ? ctl.total : n;
  const pageAll = n > 0 && n >= ctl.rows.length && ctl.total > n;
  const tooMany = ctl.total > BATCH_SELECT_CAP;
  const scope = { ...ctl.scope, allMatching: all, matchFilter: ctl.matchFilter, selectedCount: count };
  return (
    <span data-testid="bulk-bar" style={n ? undefined : { display: 'none' }}>
      <Space wrap size={4}>
        {/* a plain span, not antd Typography.Text: every list page imports this bar, and Typography
            (its copy, ellipsis measuring and editing with TextArea) would ship with each of them */}
        <span data-testid="bulk-count">{all ? env.t('runtime.list.selectedAll', { count }) : env.t('runtime.list.selected', { count })}</span>
        {selectAllMatching && pageAll && !all ? (
          <Button type="link" size="small" data-testid="select-all-matching" disabled={tooMany} onClick={() => setAll(true)}>
            {env.t('runtime.list.selectAllMatching', { total: ctl.total })}
            {tooMany ? env.t('runtime.list.selectAllCap', { cap: BATCH_SELECT_CAP }) : null}
          </Button>
        ) : null}
        <Button
          type="link"
          size="small"
          onClick={() => {
            setAll(false);
            ctl.setSelection([], []);
          }}
        >
          {env.t('runtime.list.clearSelection')}
        </Button>
        <ActionButtons actions={actions} host={host(scope)} />
      </Space>
    </span>
  );
}
