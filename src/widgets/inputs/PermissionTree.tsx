import { connect, mapReadPretty } from '@formily/react';
import { Spin, Tree } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { useMemo } from 'react';
import { useRemoteOptions } from './use-remote-options.js';

interface PermissionNode {
  id: number;
  permission_name?: string;
  permission_key?: string;
  children_recursive?: PermissionNode[];
  children?: PermissionNode[];
}

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
