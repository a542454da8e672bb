/**
 * A list's selected rows (batch actions). They follow each reply: the same keys, the fresh row
 * objects; rows that are gone (a batch delete, another page) drop out of the selection, so a
 * batch action never names them.
 */
import { useCallback, useEffect, useState } from 'react';

export type Row = Record<string, unknown>;
export type RowKey = string | number;

export interface RecordSelection {
  selectedKeys: RowKey[];
  selectedRows: Row[];
  setSelection(keys: RowKey[], rows: Row[]): void;
}

/** The selection kept after `rows` arrived: only keys still shown, with their fresh rows (the same object when nothing changed). */
export function followRows(sel: { keys: RowKey[]; rows: Row[] }, rows: Row[], rowKey: string): { keys: RowKey[]; rows: Row[] } {
  if (!sel.keys.length) return sel;
  const fresh = new Map(rows.map((r) => [r[rowKey] as RowKey, r]));
  const keys = sel.keys.filter((k) => fresh.has(k));
  const next = keys.map((k) => fresh.get(k)!);
  return keys.length !== sel.keys.length || next.some((r, i) => r !== sel.rows[i]) ? { keys, rows: next } : sel;
}

export function useRecordSelection(rows: Row[], rowKey: string): RecordSelection {
  const [selection, setSelectionState] = useState<{ keys: RowKey[]; rows: Row[] }>({ keys: [], rows: [] });
  useEffect(() => setSelectionState((sel) => followRows(sel, rows, rowKey)), [rows, rowKey]);
  const setSelection = useCallback((keys: RowKey[], sel: Row[]) => setSelectionState({ keys, rows: sel }), []);
  return { selectedKeys: selection.keys, selectedRows: selection.rows, setSelection };
}
