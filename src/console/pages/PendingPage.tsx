/** Temporary stand-in while src/widgets/schema-page/SchemaPage.tsx does not exist yet. */
import { Result } from 'antd';
import { useTranslation } from 'react-i18next';
import type { PageProps } from '../../runtime/route-config.js';

export default function PendingPage({ path }: PageProps) {
  const { t } = useTranslation();
  return <Result status="info" title={t('shell.pending.title')} subTitle={t('shell.pending.subTitle', { path })} />;
}
