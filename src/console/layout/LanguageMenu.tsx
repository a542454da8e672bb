/** The language dropdown (a chunk of its own: /login does not carry Dropdown and Menu until it is opened). */
import { Dropdown } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LOCALES, settingsStore, type Locale } from '../settings/store.js';

export default function LanguageMenu({ open, onOpenChange, children }: { open: boolean; onOpenChange(open: boolean): void; children: ReactNode }) {
  const { t } = useTranslation();
  const locale = settingsStore.use((s) => s.locale);
  return (
    <Dropdown
      trigger={['click']}
      open={open}
      onOpenChange={onOpenChange}
      menu={{
        selectedKeys: [locale],
        items: LOCALES.map((l) => ({ key: l, label: <span data-testid={`lang-${l}`}>{t(`shell.languages.${l}`)}</span> })),
        onClick: ({ key }) => {
          onOpenChange(false);
          settingsStore.set({ locale: key as Locale });
        },
      }}
    >
      {children}
    </Dropdown>
  );
}
