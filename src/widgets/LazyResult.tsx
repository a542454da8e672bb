/**
 * antd's Result, fetched when first drawn. Result carries large status illustrations (≈10 KiB
 * gzip) and is only drawn when something went wrong (no schema, a render failure, start-up
 * failed), so it stays out of the chunks every page loads. While its code loads — or when it
 * cannot load (offline, a deploy replaced the files) — the same title, text and buttons are
 * drawn plainly, so an error page never depends on a download succeeding.
 */
import type { ResultProps } from 'antd';
import { Component, lazy, Suspense, type ReactNode } from 'react';

const AntdResult = lazy(() => import('antd/es/result/index.js'));

function Plain({ title, subTitle, extra, children }: ResultProps) {
  return (
    <div style={{ padding: '48px 32px', textAlign: 'center' }}>
      <div style={{ fontSize: 24, lineHeight: 1.33, marginBottom: 8 }}>{title}</div>
      {subTitle ? <div style={{ opacity: 0.65 }}>{subTitle}</div> : null}
      {extra ? <div style={{ marginTop: 24, display: 'flex', gap: 8, justifyContent: 'center' }}>{extra}</div> : null}
      {children ? <div style={{ marginTop: 24, textAlign: 'left' }}>{children}</div> : null}
    </div>
  );
}

class PlainOnFailure extends Component<{ plain: ReactNode; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override render() {
    return this.state.failed ? this.props.plain : this.props.children;
  }
}

export function LazyResult(props: ResultProps) {
  const plain = <Plain {...props} />;
  return (
    <PlainOnFailure plain={plain}>
      <Suspense fallback={plain}>
        <AntdResult {...props} />
      </Suspense>
    </PlainOnFailure>
  );
}
