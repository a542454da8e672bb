/**
 * A module home's key figures (`GET home/stats`): numbers and bar charts of the pages this
 * account may open — the server returns only those, so a figure missing from the reply is not
 * drawn. Per-day charts cover the last 14 days in the browser's time zone (sent as `tz`, named
 * under the title). Charts load lazily (HomeChart, ECharts): the numbers draw first. The reply
 * is read through the query client, keyed by module and zone: a reply for another module (a
 * switch before the first answered) is never shown, and a module's figures seen less than 30 s
 * ago show again without a request.
 */
import { Button, Card, Col, Row, Skeleton, Statistic, Typography, theme } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { ModuleName } from '../../contract/permission-manifest.js';
import { apiKey } from '../../runtime/data-layer/keys.js';
import { useDataClient } from '../../runtime/data-layer/use-data-client.js';
import { useShell } from '../../runtime/shell.js';
import { buildFigures, describe, type HomeStats } from './HomeFigures.build.js';
import { ensureHomeTexts } from './texts.js';

const HomeChart = lazy(() => import('./HomeChart.js'));

const browserZone = () => {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
};

export default function HomeFigures({ module }: { module: ModuleName }) {
  const { t, i18n } = useTranslation();
  ensureHomeTexts(i18n);
  const shell = useShell();
  const { http } = shell.env;
  const locale = shell.useState((s) => s.locale);
  const dark = shell.useState((s) => s.dark);
  const { token } = theme.useToken();
  const client = useDataClient();
  const query = useQuery(
    {
      queryKey: apiKey('GET home/stats', { module, tz: browserZone() }),
      // the client shows a failure's message; the query's signal cancels a request no longer wanted
      queryFn: ({ queryKey, signal }) => http.get<HomeStats>('home/stats', queryKey[2], { signal }),
    },
    client,
  );
  const data = query.data ?? null;
  const failed = query.isError;
  const load = () => void query.refetch();

  const built = useMemo(() => (data ? buildFigures(data, t, locale, dark) : null), [data, t, locale, dark]);
  const nf = new Intl.NumberFormat(locale);

  if (failed && !data) {
    return (
      <Card size="small" style={{ marginBottom: 16 }} data-testid="home-figures-error">
        <Typography.Text type="secondary">{t('home.error')}</Typography.Text>{' '}
        <Button size="small" onClick={load}>
          {t('home.retry')}
        </Button>
      </Card>
    );
  }
  if (!built || !data) return <Skeleton active paragraph={{ rows: 3 }} style={{ marginBottom: 16 }} />;
  if (built.stats.length === 0 && built.charts.length === 0) return null;
  return (
    <section aria-labelledby="home-figures-title" data-testid="home-figures" data-tz={data.tz} style={{ marginBottom: 24 }}>
      <Typography.Title level={5} id="home-figures-title" style={{ marginBottom: 0 }}>
        {t('home.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 12 }}>
        {t('home.range', { tz: data.tz })}
      </Typography.Paragraph>
      <Row gutter={[12, 12]}>
        {built.stats.map((s) => (
          <Col key={s.id} xs={12} md={8} xl={6}>
            <Card size="small" style={{ height: '100%' }}>
              <div data-testid={`home-stat-${s.id}`} data-value={s.raw ?? ''}>
                <Statistic title={s.title} value={s.value} />
                {s.hint && (
                  <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
                    {s.hint}
                  </Typography.Text>
                )}
              </div>
            </Card>
          </Col>
        ))}
      </Row>
      {built.charts.length > 0 && (
        <Row gutter={[12, 12]} style={{ marginTop: 12 }}>
          {built.charts.map((c) => (
            <Col key={c.id} xs={24} xl={12}>
              <Card size="small" title={<span id={`home-chart-title-${c.id}`}>{c.title}</span>}>
                <Suspense
                  fallback={
                    <div role="status" style={{ height: 260 }}>
                      <Typography.Text type="secondary">{t('home.loadingChart')}</Typography.Text>
                    </div>
                  }
                >
                  <HomeChart
                    testId={`home-chart-${c.id}`}
                    label={describe(c, t, nf)}
                    categories={c.categories}
                    series={c.series}
                    stacked={c.stacked}
                    horizontal={c.horizontal}
                  />
                </Suspense>
              </Card>
            </Col>
          ))}
        </Row>
      )}
    </section>
  );
}
