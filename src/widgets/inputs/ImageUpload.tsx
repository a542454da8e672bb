/**
 * An image field that uploads (image extraction's create and edit forms): the person picks a
 * png, jpeg, webp or gif, it is sent at once to `api` (multipart `file`), and the field's value
 * becomes the same-origin path the reply names (`url`), shown as a preview. A value that is
 * already a path or an address (an existing row) is shown as it is and kept until replaced.
 */
import { connect, mapReadPretty } from '@formily/react';
import { Button, Image as AntImage, Space, Typography } from 'antd';
import { useRef, useState, type ChangeEvent } from 'react';
import { parseApi } from '../../runtime/api.js';
import { useRuntime } from '../../runtime/context.js';
import { useServedImage } from '../display/served-image.js';

interface Props {
  value?: string;
  onChange?(v: string): void;
  /** "POST image-extraction/upload" */
  api?: string;
  accept?: string;
  /** bytes (default 10 MB) */
  maxSize?: number;
  disabled?: boolean;
  readOnly?: boolean;
}

const ACCEPT = 'image/png,image/jpeg,image/webp,image/gif';
const MAX = 10 * 1024 * 1024;

function Preview({ src }: { src: string }) {
  const { env } = useRuntime();
  const shown = useServedImage(src);
  if (shown.failed) return <Typography.Text type="danger">{env.t('runtime.imageUpload.unreadable')}</Typography.Text>;
  return shown.url ? <AntImage src={shown.url} alt={env.t('runtime.imageUpload.preview')} width={160} /> : null;
}

function ImageUploadInput({ value, onChange, api = 'POST image-extraction/upload', accept = ACCEPT, maxSize = MAX, disabled, readOnly }: Props) {
  const { env } = useRuntime();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState<number | null>(null);
  const pick = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    if (file.size > maxSize) {
      env.notify.error(env.t('runtime.upload.tooLarge', { max: maxSize }));
      return;
    }
    const form = new FormData();
    form.append('file', file);
    setBusy(0);
    try {
      const r = await env.http.upload<{ url: string }>(parseApi(api).path, form, { onProgress: (p) => setBusy(p) });
      onChange?.(r.url);
    } catch {
      /* the client showed the server's reason */
    } finally {
      setBusy(null);
    }
  };
  return (
    <Space direction="vertical">
      {value ? <Preview src={value} /> : null}
      {!readOnly && (
        <>
          <input ref={input} type="file" accept={accept} hidden onChange={(e) => void pick(e)} data-testid="image-upload-input" />
          <Button onClick={() => input.current?.click()} loading={busy !== null} disabled={disabled}>
            {busy !== null ? env.t('runtime.imageUpload.uploading', { percent: busy }) : env.t(value ? 'runtime.imageUpload.replace' : 'runtime.imageUpload.choose')}
          </Button>
          <Typography.Text type="secondary">{env.t('runtime.imageUpload.hint')}</Typography.Text>
        </>
      )}
    </Space>
  );
}

function ImageUploadView({ value }: Props) {
  return value ? <Preview src={value} /> : <span>-</span>;
}

export const ImageUpload = connect(ImageUploadInput, mapReadPretty(ImageUploadView));
