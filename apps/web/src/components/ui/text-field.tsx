import type { InputHTMLAttributes, ReactNode } from 'react';

type TextFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value'> & {
  label: string;
  value: string;
  onValueChange: (value: string) => void;
  /** Shown under the input (link it with aria-describedby). */
  children?: ReactNode;
};

/** A labelled text input in the app's form style: the label wraps the input, so a click on it focuses the field. */
export function TextField({ label, onValueChange, children, ...input }: TextFieldProps) {
  return (
    <label className="field">
      <span className="field-label">{label}</span>
      <input className="input" {...input} onChange={(e) => onValueChange(e.target.value)} />
      {children}
    </label>
  );
}
