/** /home: the common home (no module permission, no menu entry): the modules this account may open. */
import { Button, Card, Col, Empty, Row, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { accessibleModules, moduleEntryPath, useRouteTree } from '../runtime/route-config.js';
import { useShell } from '../runtime/shell.js';

export default function Home() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const shell = useShell();
  const access = shell.useState((s) => s.access);
  const user = shell.useState((s) => s.user);
  const locale = shell.useState((s) => s.locale);
  const modules = accessibleModules(useRouteTree(), access);
  return (
    <div data-testid="home-page">
      <Typography.Title level={3}>{t('shell.home.welcome', { name: user?.name || user?.email || '' })}</Typography.Title>
      <Typography.Paragraph type="secondary">{t('shell.home.description')}</Typography.Paragraph>
      {modules.length === 0 && <Empty description={t('shell.home.noModules')} />}
      <Row gutter={[16, 16]}>
        {modules.map((m) => {
          const to = moduleEntryPath(m, access);
          return (
            <Col key={m.module} xs={24} sm={12} lg={6}>
              <Card title={m.title[locale]} data-testid={`home-module-${m.module}`}>
                <Typography.Paragraph type="secondary" ellipsis>
                  {m.menus.map((n) => n.title[locale]).join(' · ')}
                </Typography.Paragraph>
                <Button type="primary" disabled={!to} onClick={() => to && navigate(to)}>
                  {t('shell.home.enter')}
                </Button>
              </Card>
            </Col>
          );
        })}
      </Row>
    </div>
  );
}
