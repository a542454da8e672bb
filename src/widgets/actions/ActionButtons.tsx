import { DownOutlined } from '@ant-design/icons';
import { Button, Dropdown, Space, Tooltip } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { isDisabled, isShown, runAction, type ActionHost, type ImportReport } from '../../runtime/actions.js';
import type { ActionSpec } from '../../runtime/types.js';
import { pickFile } from './pick-file.js';

export interface ActionButtonsProps {
  actions: readonly ActionSpec[] | undefined;
  host: Omit<ActionHost, 'progress' | 'pickFile' | 'showReport'>;
  /** toolbar buttons, or compact links in a table row */
  variant?: 'button' | 'link';
}

// the import report (Modal, Typography) loads when an import has a report to show: a list page
// draws its toolbar and row actions without it
const ImportReportModal = lazy(() => import('./ImportReportModal.js').then((m) => ({ default: m.ImportReportModal })));

/** Row links shown before the rest fold into a "more" menu (a row with more than this many actions). */
export const ROW_LINKS_SHOWN = 3;

/** Draws the actions the caller may see and runs them; busy / progress per action. */
export function ActionButtons({ actions, host, variant = 'button' }: ActionButtonsProps) {
  const [busy, setBusy] = useState<Record<string, number | true>>({});
  const [report, setReport] = useState<{ report: ImportReport; done(): void } | null>(null);
  const visible = (actions ?? []).filter((a) => isShown(a, host.env, host.scope));
  if (!visible.length) return null;
  const run = async (a: ActionSpec) => {
    // forms and navigation show their own state; calls show a spinner / progress on the button
    const shows = a.type === 'request' || a.type === 'download' || a.type === 'upload';
    if (shows) setBusy((b) => ({ ...b, [a.key]: true }));
    try {
      await runAction(a, {
        ...host,
        pickFile,
        showReport: (r) => new Promise<void>((done) => setReport({ report: r, done })),
        progress: (key, p) => setBusy((b) => ({ ...b, [key]: p === null ? true : p })),
      });
    } catch (e) {
      // request errors are shown by the http client; anything else is reported here
      if (!(e && typeof e === 'object' && 'code' in e)) host.env.notify.error(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy((b) => {
        const next = { ...b };
        delete next[a.key];
        return next;
      });
    }
  };
  // past three row actions, the first two stay links and the rest fold into "more"
  const folds = variant === 'link' && visible.length > ROW_LINKS_SHOWN;
  const shown = folds ? visible.slice(0, ROW_LINKS_SHOWN - 1) : visible;
  const folded = folds ? visible.slice(ROW_LINKS_SHOWN - 1) : [];
  return (
    // row links stay on one line (a wrapped 'Delete' under 'Edit' reads as a second row)
    <>
      <Space size={variant === 'link' ? 4 : 8} wrap={variant !== 'link'}>
        {shown.map((a) => {
          const state = busy[a.key];
          const label = host.env.t(a.label) + (typeof state === 'number' ? ` ${Math.round(state)}%` : '');
          const button = (
            <Button
              key={a.key}
              data-action={a.key}
              type={variant === 'link' ? 'link' : a.primary ? 'primary' : 'default'}
              size={variant === 'link' ? 'small' : 'middle'}
              danger={a.danger}
              disabled={isDisabled(a, host.scope)}
              loading={state !== undefined}
              onClick={() => void run(a)}
            >
              {label}
            </Button>
          );
          return a.tooltip ? (
            <Tooltip key={a.key} title={host.env.t(a.tooltip)}>
              {button}
            </Tooltip>
          ) : (
            button
          );
        })}
        {folded.length ? (
          <Dropdown
            trigger={['click']}
            menu={{
              items: folded.map((a) => ({
                key: a.key,
                label: <span data-action={a.key}>{host.env.t(a.label)}</span>,
                danger: a.danger,
                disabled: isDisabled(a, host.scope) || busy[a.key] !== undefined,
              })),
              onClick: ({ key }) => {
                const a = folded.find((x) => x.key === key);
                if (a) void run(a);
              },
            }}
          >
            <Button type="link" size="small" data-action="__more" loading={folded.some((a) => busy[a.key] !== undefined)}>
              {host.env.t('runtime.list.more')} <DownOutlined />
            </Button>
          </Dropdown>
        ) : null}
      </Space>
      {report && (
        <Suspense fallback={null}>
          <ImportReportModal
            report={report.report}
            env={host.env}
            onClose={() => {
              report.done();
              setReport(null);
            }}
          />
        </Suspense>
      )}
    </>
  );
}
