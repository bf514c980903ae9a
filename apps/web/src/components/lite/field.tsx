import type { ReactNode } from 'react';

/**
 * A labelled form row drawn like antd's vertical Form.Item (large): the label tied to the control by `id`,
 * the check's message under it (announced, as antd's), an optional hint.
 */
export function Field({ id, label, error, extra, optionalText, children }: { id?: string; label?: ReactNode; error?: string; extra?: ReactNode; optionalText?: string; children: ReactNode }) {
  return (
    <div className={`lite-field${error ? ' lite-field--error' : ''}`}>
      {label ? (
        <div className="lite-field__label">
          <label htmlFor={id}>
            {label}
            {optionalText ? <span className="lite-field__optional">{optionalText}</span> : null}
          </label>
        </div>
      ) : null}
      {children}
      {error ? (
        <div id={id ? `${id}_help` : undefined} className="lite-field__error" role="alert">
          {error}
        </div>
      ) : null}
      {extra ? <div className="lite-field__extra">{extra}</div> : null}
    </div>
  );
}
