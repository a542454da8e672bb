import { Image as AntImage } from 'antd';
import type { DisplayProps } from '../../runtime/registry.js';
import { isBlank } from './format.js';

/** The file name in an image URL, as its text alternative when the schema names none. */
const fileName = (src: string) => {
  const last = src.split(/[?#]/)[0].split('/').filter(Boolean).pop() ?? src;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
};

/** An image cell; `altKey` names the record field that describes it (else its file name). */
export function Image({ value, width, record, altKey }: DisplayProps) {
  if (isBlank(value)) return <span>-</span>;
  const src = String(value);
  const alt = typeof altKey === 'string' && record && !isBlank(record[altKey]) ? String(record[altKey]) : fileName(src);
  return <AntImage src={src} alt={alt} width={typeof width === 'number' ? width : 48} />;
}
