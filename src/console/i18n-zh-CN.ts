/** zh-CN, the default locale: the core texts, antd and dayjs locales (bundled with the shell). */
import zhCN from 'antd/es/locale/zh_CN';
import 'dayjs/locale/zh-cn';
import { localeTree, type LocaleTree } from './i18n-bundle.js';

const files = import.meta.glob<LocaleTree>(['../locales/zh-CN/shell.json', '../locales/zh-CN/common.json', '../locales/zh-CN/runtime.json'], {
  eager: true,
  import: 'default',
});

export const texts = localeTree(files, 'core');
export const antd = zhCN;
export const dayjsLocale = 'zh-cn';
