/** zh-CN, the default locale: the core texts and antd's locale (bundled with the shell; dayjs's zh-cn loads with the layout: layout/dayjs-locale.ts). */
import zhCN from 'antd/es/locale/zh_CN';
import { localeTree, type LocaleTree } from './i18n-bundle.js';

const files = import.meta.glob<LocaleTree>(['../locales/zh-CN/shell.json', '../locales/zh-CN/common.json'], {
  eager: true,
  import: 'default',
});

export const texts = localeTree(files, 'core');
export const antd = zhCN;
export const dayjsLocale = 'zh-cn';
