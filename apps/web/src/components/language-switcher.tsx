import { GlobalOutlined } from '@ant-design/icons';
import type { Lang } from '@resi/contract';
import { LANGS, normalizeLang } from '@resi/contract';
import { Button, Dropdown } from 'antd';
import { useTranslation } from 'react-i18next';
import { LANGUAGE_LABELS, setLanguage } from '@/lib/i18n';
import { notify } from '@/lib/notify';
import { HEADER_DROPDOWN } from '@/lib/header-dropdown';

/** English / 简体中文 / 繁體中文: stores `lang` and re-renders texts without reloading the page. */
export function LanguageSwitcher({ light = false }: { light?: boolean }) {
  const { i18n, t } = useTranslation();
  const lang = normalizeLang(i18n.language);
  return (
    <Dropdown
      trigger={['click']}
      {...HEADER_DROPDOWN}
      menu={{
        selectable: true,
        selectedKeys: [lang],
        items: LANGS.map((code) => ({ key: code, label: LANGUAGE_LABELS[code] })),
        onClick: ({ key }) => void setLanguage(key as Lang).catch(() => notify.error(t('common.error.network'))),
      }}
    >
      <Button
        type="text"
        icon={<GlobalOutlined />}
        className={light ? 'lang-switcher lang-switcher--light' : 'lang-switcher'}
        aria-label={t('common.language')}
        data-testid="language-switcher"
      >
        {LANGUAGE_LABELS[lang]}
      </Button>
    </Dropdown>
  );
}
