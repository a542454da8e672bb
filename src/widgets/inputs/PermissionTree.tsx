import { connect, mapReadPretty } from '@formily/react';
import { Spin, Tree } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { useMemo } from 'react';
import type { PermissionTreeNode } from '../../contract/replies/permissions.js';
import { useRemoteOptions } from './use-remote-options.js';

/**
 * A node of `GET permission/tree` (declared once: src/contract/replies/permissions.ts); another
 * `api` may answer the children under `children` instead.
 */
type PermissionNode = Pick<PermissionTreeNode, 'id'> &
  Partial<Pick<PermissionTreeNode, 'permission_name' | 'permission_key'>> & { children_recursive?: PermissionNode[]; children?: PermissionNode[] };

interface Props {
  value?: number[];
  onChange?(ids: number[]): void;
  api?: string;
  disabled?: boolean;
  readOnly?: boolean;
  height?: number;
}

function toTree(nodes: PermissionNode[], leaves: Set<number>): DataNode[] {
  return nodes.map((n) => {
    const kids = n.children_recursive ?? n.children ?? [];
    if (!kids.length) leaves.add(n.id);
    return { key: n.id, title: n.permission_name || n.permission_key || String(n.id), children: toTree(kids, leaves) };
  });
}

/**
 * Checkable permission tree (from `GET permission/tree`). The value holds checked and
 * half-checked ids, so a role that holds a page also holds its menu; only leaves are shown
 * checked, the tree derives the parents.
 */
function PermissionTreeInput({ value, onChange, api = 'GET permission/tree', disabled, readOnly, height }: Props) {
  const { options, loading } = useRemoteOptions({ api });
  const { treeData, leaves } = useMemo(() => {
    const l = new Set<number>();
    return { treeData: toTree(options.map((o) => o.raw as unknown as PermissionNode), l), leaves: l };
  }, [options]);
  if (loading) return <Spin size="small" />;
  const checked = (value ?? []).filter((id) => leaves.has(id));
  return (
    <Tree
      checkable
      selectable={false}
      disabled={disabled || readOnly}
      defaultExpandAll
      height={height}
      treeData={treeData}
      checkedKeys={checked}
      onCheck={(keys, info) => {
        const list = Array.isArray(keys) ? keys : keys.checked;
        onChange?.([...list, ...(info.halfCheckedKeys ?? [])].map(Number));
      }}
    />
  );
}

export const PermissionTree = connect(
  PermissionTreeInput,
  mapReadPretty((p: Props) => <PermissionTreeInput {...p} readOnly />),
);
