/**
 * Language switch (zh-CN default, en-US); the choice is saved locally. The button is drawn
 * at once; the dropdown's code (./LanguageMenu.tsx) loads on the first click (or hover /
 * focus, to be ready by the click) and then opens.
 */
import { GlobalOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { settingsStore } from '../settings/store.js';

const loadMenu = () => import('./LanguageMenu.js');
const LanguageMenu = lazy(loadMenu);

export function LanguageSwitch() {
  const { t } = useTranslation();
  const locale = settingsStore.use((s) => s.locale);
  const [wanted, setWanted] = useState(false);
  const [open, setOpen] = useState(false);
  const warm = () => void loadMenu().catch(() => undefined);
  const button = (
    <Button
      type="text"
      icon={<GlobalOutlined />}
      // the accessible name starts with the visible text (WCAG 2.5.3 label in name)
      aria-label={`${t(`shell.languages.${locale}`)} · ${t('shell.header.language')}`}
      data-testid="lang-switch"
      onMouseEnter={wanted ? undefined : warm}
      onFocus={wanted ? undefined : warm}
      onClick={
        wanted
          ? undefined
          : () => {
              setWanted(true);
              setOpen(true);
            }
      }
    >
      {t(`shell.languages.${locale}`)}
    </Button>
  );
  if (!wanted) return button;
  return (
    <Suspense fallback={button}>
      <LanguageMenu open={open} onOpenChange={setOpen}>
        {button}
      </LanguageMenu>
    </Suspense>
  );
}
