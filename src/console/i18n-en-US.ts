/** en-US: texts and the antd locale (a chunk of its own, loaded when English is chosen). */
import enUS from 'antd/es/locale/en_US';
import { localeTree, type LocaleTree } from './i18n-bundle.js';

const files = import.meta.glob<LocaleTree>('../locales/en-US/*.json', { eager: true, import: 'default' });

export const texts = localeTree(files);
export const antd = enUS;
export const dayjsLocale = 'en';
