import { Image as AntImage, Skeleton } from 'antd';
import type { DisplayProps } from '../../runtime/registry.js';
import { isBlank } from './format.js';
import { useServedImage } from './served-image.js';

/** The file name in an image URL, as its text alternative when the schema names none. */
const fileName = (src: string) => {
  const last = src.split(/[?#]/)[0].split('/').filter(Boolean).pop() ?? src;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
};

/**
 * An image cell; `altKey` names the record field that describes it (else its file name). An
 * image the console serves (`/api/admin/…`, an upload) is fetched with the session (served-image.ts).
 */
export function Image({ value, width, record, altKey }: DisplayProps) {
  const src = isBlank(value) ? null : String(value);
  const shown = useServedImage(src);
  if (!src) return <span>-</span>;
  const w = typeof width === 'number' ? width : 48;
  const alt = typeof altKey === 'string' && record && !isBlank(record[altKey]) ? String(record[altKey]) : fileName(src);
  if (shown.failed) return <span title={src}>{alt}</span>;
  if (!shown.url) return <Skeleton.Image active style={{ width: w, height: w }} />;
  return <AntImage src={shown.url} alt={alt} width={w} />;
}
