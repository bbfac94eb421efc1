import type { ReactNode } from 'react';
import { ErrorBanner } from './error-banner';

interface FormActionsProps {
  /** What the last submission's request failed with; nothing is shown while it is null or undefined. */
  error: unknown;
  /** The banner's lead, when the form's failure is not a refusal by the gateway (sign-in). */
  errorTitle?: string;
  submitLabel: ReactNode;
  /** While the submission is in flight: the submit button is disabled, so it is never sent twice. */
  busy: boolean;
  /** A destructive submission (debit, cancel, refund) is drawn as one. */
  tone?: 'primary' | 'danger';
  /** Closes the form; without it there is no Cancel button (a form that stays on its page). */
  onCancel?: () => void;
}

/** The end of every console form: what the gateway refused, then submit and, where it closes, Cancel. */
export function FormActions({
  error,
  errorTitle,
  submitLabel,
  busy,
  tone = 'primary',
  onCancel,
}: FormActionsProps) {
  return (
    <>
      <ErrorBanner error={error} title={errorTitle} />
      <div className="form__actions">
        <button type="submit" className={`button button--${tone}`} disabled={busy}>
          {submitLabel}
        </button>
        {onCancel !== undefined && (
          <button type="button" className="button" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </>
  );
}
