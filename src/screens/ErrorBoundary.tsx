/** A render failure shows the error-boundary page instead of a blank screen. */
import { Button } from 'antd';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LazyResult } from '../widgets/LazyResult.js';

function ErrorPage({ error }: { error: Error }) {
  const { t } = useTranslation();
  return (
    <div data-testid="error-boundary">
      <LazyResult
        status="error"
        title={t('shell.error.title')}
        subTitle={t('shell.error.subTitle')}
        extra={[
          <Button key="reload" type="primary" onClick={() => window.location.reload()}>
            {t('shell.error.reload')}
          </Button>,
          <Button key="home" onClick={() => window.location.assign('/home')}>
            {t('shell.error.backHome')}
          </Button>,
        ]}
      >
        <pre style={{ whiteSpace: 'pre-wrap', margin: 0, fontSize: 12 }}>{error.message}</pre>
      </LazyResult>
    </div>
  );
}

export class ErrorBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state: { error: Error | null } = { error: null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('render failure', error, info.componentStack);
  }

  override render() {
    return this.state.error ? <ErrorPage error={this.state.error} /> : this.props.children;
  }
}
