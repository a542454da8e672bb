/**
 * dayjs's locale follows the language on screen. It loads with the signed-in layout, where every
 * date is drawn, and not with /login (dayjs and its zh-cn locale are ≈ 2.5 KiB gzip the sign-in
 * page never uses). Set while the layout renders, so the pages below it format with it at once.
 */
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';

export function followDayjsLocale(name: string): void {
  if (dayjs.locale() !== name) dayjs.locale(name);
}
