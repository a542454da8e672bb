/** zh-CN texts of the modules' pages (a chunk of its own: /login does not need them). */
import { localeTree, type LocaleTree } from './i18n-bundle.js';

const files = import.meta.glob<LocaleTree>(['../locales/zh-CN/*.json', '!../locales/zh-CN/{shell,common,runtime}.json'], {
  eager: true,
  import: 'default',
});

export const texts = localeTree(files, 'modules');
