/** Language switch (zh-CN default, en-US); the choice is saved locally. */
import { GlobalOutlined } from '@ant-design/icons';
import { Button, Dropdown } from 'antd';
import { useTranslation } from 'react-i18next';
import { LOCALES, settingsStore } from '../settings/store.js';

export function LanguageSwitch() {
  const { t } = useTranslation();
  const locale = settingsStore.use((s) => s.locale);
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectedKeys: [locale],
        items: LOCALES.map((l) => ({ key: l, label: <span data-testid={`lang-${l}`}>{t(`shell.languages.${l}`)}</span> })),
        onClick: ({ key }) => settingsStore.set({ locale: key as (typeof LOCALES)[number] }),
      }}
    >
      <Button type="text" icon={<GlobalOutlined />} aria-label={t('shell.header.language')} data-testid="lang-switch">
        {t(`shell.languages.${locale}`)}
      </Button>
    </Dropdown>
  );
}
