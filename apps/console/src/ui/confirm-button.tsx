import { useState } from 'react';

/**
 * A destructive action in two clicks (the second on "Confirm …"), instead of window.confirm, which
 * blocks the page and that a keyboard or screen-reader user meets without context.
 */
export function ConfirmButton({
  label,
  confirmLabel,
  onConfirm,
  disabled,
}: {
  label: string;
  confirmLabel: string;
  onConfirm: () => void;
  disabled?: boolean;
}) {
  const [armed, setArmed] = useState(false);
  if (!armed) {
    return (
      <button
        type="button"
        className="button button--danger"
        disabled={disabled}
        onClick={() => setArmed(true)}
      >
        {label}
      </button>
    );
  }
  return (
    <span className="confirm">
      <button
        type="button"
        className="button button--danger"
        onClick={() => {
          setArmed(false);
          onConfirm();
        }}
      >
        {confirmLabel}
      </button>
      <button type="button" className="button" onClick={() => setArmed(false)}>
        Keep
      </button>
    </span>
  );
}
