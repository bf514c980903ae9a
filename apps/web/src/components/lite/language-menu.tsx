import type { Lang } from '@resi/contract';
import { LANGS, normalizeLang } from '@resi/contract';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGE_LABELS, setLanguage } from '@/lib/i18n';
import { notify } from '@/lib/notify';
import { GlobalOutlined, Icon } from './icons';

/**
 * The language switcher of components/language-switcher.tsx for the pages drawn without antd: the same button
 * and menu items (role menuitem), opened by a click, closed by a choice, Escape or a click elsewhere.
 */
export function LiteLanguageMenu() {
  const { i18n, t } = useTranslation();
  const lang = normalizeLang(i18n.language);
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const away = (event: MouseEvent) => {
      if (!box.current?.contains(event.target as Node)) setOpen(false);
    };
    const escape = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    document.addEventListener('mousedown', away);
    document.addEventListener('keydown', escape);
    return () => {
      document.removeEventListener('mousedown', away);
      document.removeEventListener('keydown', escape);
    };
  }, [open]);

  const choose = (code: Lang) => {
    setOpen(false);
    void setLanguage(code).catch(() => notify.error(t('common.error.network')));
  };

  return (
    <div className="lite-dropdown" ref={box}>
      <button
        type="button"
        className="lite-button lite-button--text lite-button--middle lang-switcher"
        aria-label={t('common.language')}
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        data-testid="language-switcher"
      >
        <Icon icon={GlobalOutlined} />
        <span>{LANGUAGE_LABELS[lang]}</span>
      </button>
      {open ? (
        <ul className="lite-dropdown__menu" role="menu">
          {LANGS.map((code) => (
            <li
              key={code}
              role="menuitem"
              tabIndex={-1}
              aria-current={code === lang || undefined}
              className={code === lang ? 'lite-dropdown__item lite-dropdown__item--selected' : 'lite-dropdown__item'}
              onClick={() => choose(code)}
              onKeyDown={(e) => {
                if (e.key === 'Enter' || e.key === ' ') choose(code);
              }}
            >
              {LANGUAGE_LABELS[code]}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
