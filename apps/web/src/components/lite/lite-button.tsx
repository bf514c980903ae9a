import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { Icon, LoadingOutlined } from './icons';

/** antd's Button looks (primary, default, link, text) for the pages drawn without antd. */
export function LiteButton({
  variant = 'default',
  size = 'middle',
  block = false,
  loading = false,
  icon,
  className,
  children,
  type = 'button',
  ...rest
}: ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: 'primary' | 'default' | 'link' | 'text';
  size?: 'middle' | 'large';
  block?: boolean;
  loading?: boolean;
  icon?: ReactNode;
  children?: ReactNode;
}) {
  const classes = ['lite-button', `lite-button--${variant}`, `lite-button--${size}`, block ? 'lite-button--block' : '', loading ? 'lite-button--loading' : '', className ?? '']
    .filter(Boolean)
    .join(' ');
  return (
    <button type={type} className={classes} {...rest}>
      {loading ? <Icon icon={LoadingOutlined} spin /> : icon}
      {children !== undefined ? <span>{children}</span> : null}
    </button>
  );
}
