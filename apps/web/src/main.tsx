import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from '@/app/app';
import { preloadFirstPage } from '@/app/router';
import { initI18n, initialLang } from '@/lib/i18n';
import { langFromSearch } from '@/lib/navigation';
import './styles.css';

// `?lang=` is applied by the navigation rules too; reading it here fetches only that language's pack.
const lang = langFromSearch(window.location.search) ?? initialLang();
preloadFirstPage(window.location, lang);
await initI18n(lang);

const root = document.getElementById('root');
if (!root) throw new Error('#root missing from index.html');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
