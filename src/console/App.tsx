/** The console root: i18n, antd theme and locale from the settings, antd App, router, services. */
import { App as AntApp, ConfigProvider, theme } from 'antd';
import enUS from 'antd/es/locale/en_US';
import zhCN from 'antd/es/locale/zh_CN';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { useEffect, useMemo } from 'react';
import { I18nextProvider } from 'react-i18next';
import { BrowserRouter } from 'react-router-dom';
import { createI18n } from './i18n.js';
import { AppRoutes } from './routes/AppRoutes.js';
import { ConsoleServices } from './services.js';
import { settingsStore } from './settings/store.js';

const i18n = createI18n(settingsStore.get().locale);

export function ConsoleApp() {
  const { locale, dark, primaryColor } = settingsStore.use((s) => s);

  useEffect(() => {
    void i18n.changeLanguage(locale);
    dayjs.locale(locale === 'zh-CN' ? 'zh-cn' : 'en');
    document.documentElement.lang = locale;
    document.title = i18n.t('shell.app.title');
  }, [locale]);

  useEffect(() => {
    document.documentElement.dataset.theme = dark ? 'dark' : 'light';
  }, [dark]);

  const themeConfig = useMemo(
    () => ({ algorithm: dark ? theme.darkAlgorithm : theme.defaultAlgorithm, token: { colorPrimary: primaryColor } }),
    [dark, primaryColor],
  );

  return (
    <I18nextProvider i18n={i18n}>
      <ConfigProvider locale={locale === 'zh-CN' ? zhCN : enUS} theme={themeConfig}>
        <AntApp>
          <BrowserRouter>
            <ConsoleServices>
              <AppRoutes />
            </ConsoleServices>
          </BrowserRouter>
        </AntApp>
      </ConfigProvider>
    </I18nextProvider>
  );
}
