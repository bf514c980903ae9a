import { useState, type ReactNode } from 'react';
import { EyeInvisibleOutlined, EyeOutlined, Icon } from './icons';

export interface TextInputProps {
  id?: string;
  value: string;
  onChange: (value: string) => void;
  invalid?: boolean;
  prefix?: ReactNode;
  /** A password field, with antd's show/hide eye. */
  password?: boolean;
  placeholder?: string;
  autoComplete?: string;
  maxLength?: number;
  inputMode?: 'numeric' | 'text' | 'email';
  className?: string;
}

/** A large text field like antd's Input (with prefix) and Input.Password, for the pages drawn without antd. */
export function TextInput({ id, value, onChange, invalid = false, prefix, password = false, className, ...rest }: TextInputProps) {
  const [shown, setShown] = useState(false);
  const input = (
    <input
      id={id}
      className="lite-input__control"
      type={password && !shown ? 'password' : 'text'}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      aria-invalid={invalid || undefined}
      aria-describedby={invalid && id ? `${id}_help` : undefined}
      {...rest}
    />
  );
  return (
    <span className={`lite-input${invalid ? ' lite-input--error' : ''}${className ? ` ${className}` : ''}`}>
      {prefix ? <span className="lite-input__prefix">{prefix}</span> : null}
      {input}
      {password ? (
        // As antd's: the eye is a pointer target, not a tab stop; the field works without it.
        <span className="lite-input__suffix" onMouseDown={(e) => e.preventDefault()} onClick={() => setShown(!shown)}>
          <Icon icon={shown ? EyeOutlined : EyeInvisibleOutlined} className="lite-input__eye" />
        </span>
      ) : null}
    </span>
  );
}
