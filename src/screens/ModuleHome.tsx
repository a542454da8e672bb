/**
 * /{module}/home for each of the four modules: the module's key figures this account may see
 * (home/HomeFigures, from `GET home/stats`), then the module's pages this account may open.
 */
import { Card, Col, Empty, Row, Typography } from 'antd';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { openPages, useRouteTree, type PageProps } from '../runtime/route-config.js';
import { useShell } from '../runtime/shell.js';

/**
 * The figures are a chunk of their own (with antd Statistic and Skeleton, the enum files and,
 * lazily again, the chart library): so the shell's map of ModuleHome's files stays as it was and
 * no other route's first load grows by a byte (docs/performance.md).
 */
const HomeFigures = lazy(() => import('./home/HomeFigures.js'));

export default function ModuleHome({ path }: PageProps) {
  const { t } = useTranslation();
  const shell = useShell();
  const access = shell.useState((s) => s.access);
  const locale = shell.useState((s) => s.locale);
  const module = useRouteTree().find((m) => m.home.path === path);
  if (!module) return null;
  const pages = openPages(module, access);
  return (
    <div data-testid={`module-home-${module.module}`}>
      <Typography.Title level={3}>{module.title[locale]}</Typography.Title>
      <Typography.Paragraph type="secondary">{t('shell.moduleHome.description')}</Typography.Paragraph>
      <Suspense fallback={null}>
        <HomeFigures key={module.module} module={module.module} />
      </Suspense>
      <Typography.Title level={5}>{t('shell.moduleHome.entries')}</Typography.Title>
      {pages.length === 0 && <Empty description={t('shell.moduleHome.empty')} />}
      <Row gutter={[12, 12]}>
        {pages.map((p) => (
          <Col key={p.path} xs={12} md={8} xl={6}>
            <Link to={p.path!}>
              <Card size="small" hoverable>
                {p.title[locale]}
              </Card>
            </Link>
          </Col>
        ))}
      </Row>
    </div>
  );
}
