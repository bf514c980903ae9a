import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSite } from '@/api/get-site';
import { BrandLogo } from '@/components/brand-logo';
import { CheckCircleFilled, Icon } from '@/components/lite/icons';
import { LiteLanguageMenu } from '@/components/lite/language-menu';
import { TipsPanel } from '@/components/tips-panel';
import { LegalLinks } from './legal-links';

/**
 * Login/register frame: a hero side with the tagline and tips, the form card on the other side. Drawn without
 * antd, so that these pages load light (docs/console.md#first-load).
 */
export function AuthLayout({ title, subtitle, children }: { title: string; subtitle?: string; children: ReactNode }) {
  const { t } = useTranslation();
  const site = useSite();
  return (
    <div className="auth-page">
      <aside className="auth-hero">
        <div className="auth-hero__inner">
          <BrandLogo name={site.appName} light />
          <h1 className="auth-hero__tagline" data-testid="tagline">
            {t('auth.hero.tagline')}
          </h1>
          <p className="auth-hero__lead">{t('auth.hero.lead')}</p>
          <ul className="auth-hero__points">
            {(['pool', 'protocols', 'sticky'] as const).map((key) => (
              <li key={key}>
                <Icon icon={CheckCircleFilled} /> {t(`auth.hero.points.${key}`)}
              </li>
            ))}
          </ul>
          <TipsPanel variant="hero" />
        </div>
        <div className="auth-hero__glow" aria-hidden="true" />
      </aside>
      <main className="auth-main">
        <div className="auth-main__top">
          <span className="auth-main__brand">
            <BrandLogo name={site.appName} />
          </span>
          <LiteLanguageMenu />
        </div>
        <div className="auth-card">
          <h2 className="auth-card__title">{title}</h2>
          {subtitle ? <p className="auth-card__subtitle">{subtitle}</p> : null}
          {children}
        </div>
        <footer className="auth-main__footer">
          <span>
            © {new Date().getFullYear()} {site.appName}
          </span>
          <LegalLinks />
        </footer>
      </main>
    </div>
  );
}
