import { useId } from 'react';

/** The product mark: a globe of routes, in the brand colour. Several on one page each name their own gradient. */
export function BrandMark({ size = 32 }: { size?: number }) {
  const gradient = `brand-mark-bg-${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id={gradient} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#3b82f6" />
          <stop offset="1" stopColor="#1d4ed8" />
        </linearGradient>
      </defs>
      <rect width="32" height="32" rx="8" fill={`url(#${gradient})`} />
      <circle cx="16" cy="16" r="8.5" fill="none" stroke="#fff" strokeWidth="1.8" />
      <ellipse cx="16" cy="16" rx="3.6" ry="8.5" fill="none" stroke="#fff" strokeWidth="1.5" />
      <path d="M7.8 13.2h16.4M7.8 18.8h16.4" stroke="#fff" strokeWidth="1.5" />
      <circle cx="24.5" cy="8" r="2.6" fill="#34d399" stroke="#fff" strokeWidth="1.2" />
    </svg>
  );
}

export function BrandLogo({ name, collapsed = false, light = false }: { name: string; collapsed?: boolean; light?: boolean }) {
  return (
    <span className={`brand-logo${light ? ' brand-logo--light' : ''}`}>
      <BrandMark />
      {collapsed ? null : <span className="brand-logo__name">{name}</span>}
    </span>
  );
}
