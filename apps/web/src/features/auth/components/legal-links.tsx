import { normalizeLang } from '@resi/contract';
import { useTranslation } from 'react-i18next';
import { legalUrl } from '@/lib/legal';

/** Terms of use and privacy policy in the current language (static pages under /manage/legal/). */
export function LegalLinks() {
  const { t, i18n } = useTranslation();
  const lang = normalizeLang(i18n.language);
  return (
    <span className="legal-links">
      <a href={legalUrl('terms', lang)} target="_blank" rel="noopener noreferrer">
        {t('auth.legal.terms')}
      </a>
      <span className="legal-links__sep">·</span>
      <a href={legalUrl('privacy', lang)} target="_blank" rel="noopener noreferrer">
        {t('auth.legal.privacy')}
      </a>
    </span>
  );
}
