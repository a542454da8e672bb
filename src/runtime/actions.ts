/**
 * Runs an action (data) with the environment: navigate, openForm, request (confirm, success
 * message, refresh), download / upload (with progress), refresh. Permission and `visible`
 * decide whether an action is shown at all.
 */
import type { ProductImportFailure, RecordImportRow } from '../contract/replies/imports.js';
import type { RuntimeEnv } from './env.js';
import type { ActionSpec, FormMode } from './types.js';
import type { BatchReply } from '../contract/replies/batch.js';
import { callApi, parseApi } from './api.js';
import { emitDataEvent } from './data-layer/events.js';
import type { Scope } from './expr/evaluate.js';
import { resolveCondition, resolveMap, resolvePath, resolveValue } from './expr/template.js';

export interface OpenFormRequest {
  form: string;
  mode: FormMode;
  params: Record<string, unknown>;
  record?: Record<string, unknown>;
}

export interface ActionHost {
  env: RuntimeEnv;
  scope: Scope;
  refresh(): void;
  /** opens a form (modal / drawer, or navigates to a page form); resolves true when it was submitted */
  openForm(req: OpenFormRequest): Promise<boolean>;
  /** asks for a file (upload); resolves null when cancelled */
  pickFile?(accept?: string): Promise<File | null>;
  progress?(actionKey: string, percent: number | null): void;
  /** shows the per-row report of an import (upload) whose reply has one */
  showReport?(report: ImportReport): Promise<void>;
}

export type ImportRowStatus = RecordImportRow['status'] | 'skipped' | 'failed' | 'done' | 'refused';
export interface ImportReportRow {
  row: number;
  /** the record's id in the file (external_id, product_id …) */
  ref: string | null;
  status: ImportRowStatus;
  /** "field: reason" lines */
  reasons: string[];
}
export interface ImportReport {
  /** a batch action's report (rows are record ids) rather than an import's (rows are file lines) */
  batch?: boolean;
  file?: string;
  total?: number;
  /** status → number of rows */
  counts: Partial<Record<ImportRowStatus, number>>;
  rows: ImportReportRow[];
}

const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);

/**
 * The per-row report in an upload's reply, or null: the order / session imports answer
 * `rows: [{ row, external_id, status, errors }]`, the Douyin product import
 * `skipped_rows` / `failed_rows: [{ row, product_id, reason }]`.
 */
export function importReport(result: unknown): ImportReport | null {
  if (!result || typeof result !== 'object' || Array.isArray(result)) return null;
  const r = result as Record<string, unknown>;
  const base = { file: typeof r.file === 'string' ? r.file : undefined, total: num(r.total) };
  if (Array.isArray(r.rows)) {
    const rows = (r.rows as RecordImportRow[]).map((x) => ({
      row: Number(x.row),
      ref: typeof x.external_id === 'string' ? x.external_id : null,
      status: x.status,
      reasons: Array.isArray(x.errors) ? x.errors.map((e) => `${String(e.field ?? '')}: ${String(e.message ?? '')}`) : [],
    }));
    return { ...base, counts: { created: num(r.created), updated: num(r.updated), unchanged: num(r.unchanged), rejected: num(r.rejected) }, rows };
  }
  if (Array.isArray(r.failed_rows) || Array.isArray(r.skipped_rows)) {
    const of = (list: unknown, status: ImportRowStatus): ImportReportRow[] =>
      (Array.isArray(list) ? (list as ProductImportFailure[]) : []).map((x) => ({
        row: Number(x.row),
        ref: typeof x.product_id === 'string' ? x.product_id : null,
        status,
        reasons: x.reason ? [String(x.reason)] : [],
      }));
    const rows = [...of(r.failed_rows, 'failed'), ...of(r.skipped_rows, 'skipped')].sort((a, b) => a.row - b.row);
    return { ...base, counts: { created: num(r.imported), skipped: num(r.skipped), failed: num(r.failed) }, rows };
  }
  return null;
}

/**
 * The per-row report of a batch action (`POST <list>/batch`: `results: [{ id, ok, code, msg }]`),
 * or null; the refused rows first.
 */
export function batchReport(result: unknown): ImportReport | null {
  const r = result as Partial<BatchReply> | null;
  if (!r || typeof r !== 'object' || !Array.isArray(r.results)) return null;
  const rows: ImportReportRow[] = r.results.map((x) => ({
    row: Number(x.id),
    ref: null,
    status: x.ok ? 'done' : 'refused',
    reasons: typeof x.msg === 'string' ? [x.msg] : [],
  }));
  rows.sort((a, b) => Number(a.status === 'done') - Number(b.status === 'done') || a.row - b.row);
  return { batch: true, total: num(r.total), counts: { done: num(r.done), refused: num(r.refused) }, rows };
}

/** A reply as interpolation variables for a success message (objects only). */
export const vars = (result: unknown): Record<string, unknown> | undefined => {
  if (!result || typeof result !== 'object' || Array.isArray(result)) return undefined;
  const r = result as Record<string, unknown>;
  // a batch reply ({ ids }) reads as "{{count}} deleted"
  return Array.isArray(r.ids) && r.count === undefined ? { ...r, count: r.ids.length } : r;
};
/** What a confirm text may name: how many rows are selected (batch actions). */
const confirmVars = (scope: Scope): Record<string, unknown> => ({
  // "select all N matching" selects rows beyond the page: the bulk bar says how many
  count: typeof scope.selectedCount === 'number' ? scope.selectedCount : Array.isArray(scope.selectedKeys) ? scope.selectedKeys.length : undefined,
});

/** May this action be shown? (permission via env.can, then `visible`) */
export function isShown(spec: { permission?: string; visible?: boolean | string }, env: RuntimeEnv, scope: Scope): boolean {
  if (spec.permission && !env.can(spec.permission)) return false;
  try {
    return resolveCondition(spec.visible, scope, true);
  } catch {
    return false;
  }
}

export function isDisabled(spec: { disabled?: boolean | string }, scope: Scope): boolean {
  try {
    return resolveCondition(spec.disabled, scope, false);
  } catch {
    return true;
  }
}

/** Runs the action; resolves true when it did something (not cancelled). */
export async function runAction(action: ActionSpec, host: ActionHost): Promise<boolean> {
  const { env, scope } = host;
  if (action.confirm && action.type !== 'openForm' && action.type !== 'navigate') {
    if (!(await env.confirm(env.t(action.confirm, confirmVars(scope)), { danger: action.danger }))) return false;
  }
  switch (action.type) {
    case 'navigate':
      env.navigate(resolvePath(action.to, scope));
      return true;
    case 'refresh':
      host.refresh();
      return true;
    case 'openForm': {
      const record = action.record ? resolveValue(action.record, scope) : undefined;
      const done = await host.openForm({
        form: action.form,
        // served schemas always name it (the server fills the default in: server/schemas/defaults.ts)
        mode: action.mode ?? 'edit',
        params: resolveMap(action.params, scope),
        record: record && typeof record === 'object' ? (record as Record<string, unknown>) : undefined,
      });
      if (done && action.refresh !== false) host.refresh();
      return done;
    }
    case 'request': {
      const result = await callApi<unknown>(env.http, action.api, resolveMap(action.body, scope));
      const report = batchReport(result);
      if (report?.counts.refused) {
        // a batch with rows refused: each refused row and its reason (the others were done)
        if (action.refresh !== false) host.refresh();
        if (host.showReport) void host.showReport(report);
        else env.notify.error(report.rows.filter((x) => x.status === 'refused').map((x) => `${x.row}: ${x.reasons.join('; ')}`).join('\n'));
        return true;
      }
      if (action.successMessage) env.notify.success(env.t(action.successMessage, vars(result)));
      if (action.refresh !== false) host.refresh();
      return true;
    }
    case 'download': {
      const { path } = parseApi(action.api);
      host.progress?.(action.key, 0);
      try {
        await env.http.download(path, resolveMap(action.body, scope), {
          fileName: action.fileName ? String(resolveValue(action.fileName, scope)) : undefined,
          timeout: action.timeout,
          onProgress: (p) => host.progress?.(action.key, p),
        });
      } finally {
        host.progress?.(action.key, null);
      }
      return true;
    }
    case 'upload': {
      const file = host.pickFile ? await host.pickFile(action.accept) : null;
      if (!file) return false;
      if (action.maxSize && file.size > action.maxSize) {
        env.notify.error(env.t('runtime.upload.tooLarge', { max: action.maxSize }));
        return false;
      }
      const form = new FormData();
      form.append(action.fieldName ?? 'file', file);
      for (const [k, v] of Object.entries(resolveMap(action.body, scope))) form.append(k, typeof v === 'string' ? v : JSON.stringify(v));
      const { path } = parseApi(action.api);
      host.progress?.(action.key, 0);
      let result: unknown;
      try {
        result = await env.http.upload(path, form, { onProgress: (p) => host.progress?.(action.key, p) });
        emitDataEvent({ kind: 'write', path }); // an upload writes: its resource's cached reads are stale
        if (action.successMessage) env.notify.success(env.t(action.successMessage, vars(result)));
      } finally {
        host.progress?.(action.key, null);
      }
      if (action.refresh !== false) host.refresh();
      // an import's reply with rows: each row's result in the report modal
      const report = importReport(result);
      if (report && report.rows.length && host.showReport) void host.showReport(report);
      return true;
    }
  }
}
