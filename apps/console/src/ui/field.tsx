import { useId, type ReactNode } from 'react';

interface FieldShellProps {
  label: string;
  hint?: ReactNode;
  problem?: string;
  children: (ids: { id: string; describedBy: string | undefined }) => ReactNode;
}

/** A labelled control with its hint and its problem, both announced through aria-describedby. */
function FieldShell({ label, hint, problem, children }: FieldShellProps) {
  const id = useId();
  const hintId = hint === undefined ? undefined : `${id}-hint`;
  const problemId = problem === undefined ? undefined : `${id}-problem`;
  const describedBy = [hintId, problemId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field${problem ? ' field--invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {children({ id, describedBy })}
      {hint !== undefined && (
        <small id={hintId} className="field__hint">
          {hint}
        </small>
      )}
      {problem !== undefined && (
        <small id={problemId} className="field__problem" role="alert">
          {problem}
        </small>
      )}
    </div>
  );
}

interface TextFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  type?: 'text' | 'password' | 'number' | 'url' | 'datetime-local' | 'search';
  hint?: ReactNode;
  problem?: string;
  placeholder?: string;
  autoComplete?: string;
  required?: boolean;
  name?: string;
}

export function TextField({ label, value, onChange, type = 'text', hint, problem, ...rest }: TextFieldProps) {
  return (
    <FieldShell label={label} hint={hint} problem={problem}>
      {({ id, describedBy }) => (
        <input
          id={id}
          type={type}
          value={value}
          aria-invalid={problem !== undefined}
          aria-describedby={describedBy}
          onChange={(event) => onChange(event.target.value)}
          {...rest}
        />
      )}
    </FieldShell>
  );
}

interface TextAreaFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  hint?: ReactNode;
  problem?: string;
  rows?: number;
  name?: string;
}

export function TextAreaField({ label, value, onChange, hint, problem, rows = 4, name }: TextAreaFieldProps) {
  return (
    <FieldShell label={label} hint={hint} problem={problem}>
      {({ id, describedBy }) => (
        <textarea
          id={id}
          name={name}
          rows={rows}
          value={value}
          aria-invalid={problem !== undefined}
          aria-describedby={describedBy}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    </FieldShell>
  );
}

interface SelectFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: readonly (string | { value: string; label: string })[];
  hint?: ReactNode;
  problem?: string;
  name?: string;
}

export function SelectField({ label, value, onChange, options, hint, problem, name }: SelectFieldProps) {
  return (
    <FieldShell label={label} hint={hint} problem={problem}>
      {({ id, describedBy }) => (
        <select
          id={id}
          name={name}
          value={value}
          aria-invalid={problem !== undefined}
          aria-describedby={describedBy}
          onChange={(event) => onChange(event.target.value)}
        >
          {options.map((option) => {
            const { value: optionValue, label: optionLabel } =
              typeof option === 'string' ? { value: option, label: option === '' ? 'Any' : option } : option;
            return (
              <option key={optionValue} value={optionValue}>
                {optionLabel}
              </option>
            );
          })}
        </select>
      )}
    </FieldShell>
  );
}

interface CheckboxFieldProps {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  name?: string;
}

export function CheckboxField({ label, checked, onChange, name }: CheckboxFieldProps) {
  const id = useId();
  return (
    <div className="field field--checkbox">
      <input
        id={id}
        name={name}
        type="checkbox"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
      />
      <label htmlFor={id}>{label}</label>
    </div>
  );
}
