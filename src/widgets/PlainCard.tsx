/**
 * antd's Card look (same markup, class names and CSS-in-JS styles) for the common case — a
 * title, an optional extra and a body — without Card's code: antd Card also brings Tabs and
 * Skeleton (~17 KiB gzip), which a page showing a plain card does not need.
 */
import { ConfigProvider } from 'antd';
import useCardStyle from 'antd/es/card/style/index.js';
import { useContext, type CSSProperties, type HTMLAttributes, type ReactNode } from 'react';

export interface PlainCardProps extends Omit<HTMLAttributes<HTMLDivElement>, 'title'> {
  title?: ReactNode;
  extra?: ReactNode;
  /** default true, as antd Card */
  bordered?: boolean;
  size?: 'default' | 'small';
  styles?: { header?: CSSProperties; body?: CSSProperties };
  children?: ReactNode;
}

export function PlainCard({ title, extra, bordered = true, size, styles, className, children, ...rest }: PlainCardProps) {
  const { getPrefixCls } = useContext(ConfigProvider.ConfigContext);
  const prefixCls = getPrefixCls('card');
  const [wrapCSSVar, hashId, cssVarCls] = useCardStyle(prefixCls);
  const classes = [prefixCls, bordered && `${prefixCls}-bordered`, size && size !== 'default' && `${prefixCls}-${size}`, className, hashId, cssVarCls]
    .filter(Boolean)
    .join(' ');
  return wrapCSSVar(
    <div {...rest} className={classes}>
      {(title || extra) && (
        <div className={`${prefixCls}-head`} style={styles?.header}>
          <div className={`${prefixCls}-head-wrapper`}>
            {title && <div className={`${prefixCls}-head-title`}>{title}</div>}
            {extra && <div className={`${prefixCls}-extra`}>{extra}</div>}
          </div>
        </div>
      )}
      <div className={`${prefixCls}-body`} style={styles?.body}>
        {children}
      </div>
    </div>,
  );
}
