/**
 * Placeholder while a page chunk or the first navigation loads: antd's large spinner, drawn in CSS (styles.css),
 * because it shows before antd has loaded, and on pages that never load it (login).
 */
export function PageLoading({ full = false }: { full?: boolean }) {
  return (
    <div className={full ? 'page-loading page-loading--full' : 'page-loading'}>
      <span className="spinner" role="status" aria-live="polite" aria-busy="true">
        <i />
        <i />
        <i />
        <i />
      </span>
    </div>
  );
}
