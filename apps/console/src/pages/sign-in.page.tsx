import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { signIn } from '../api/session.api';
import { FormActions } from '../ui/form-actions';
import { TextField } from '../ui/field';

/**
 * Sign-in with the admin token. The token lives only in this form's state until the gateway answers;
 * then the field is emptied and the browser holds nothing but the HttpOnly cookie it cannot read.
 */
export function SignInPage() {
  const queryClient = useQueryClient();
  const [token, setToken] = useState('');
  const [problem, setProblem] = useState<string>();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    if (token.trim() === '') {
      setProblem('Enter the admin token (ADMIN_TOKEN of the gateway).');
      return;
    }
    setProblem(undefined);
    setBusy(true);
    try {
      await signIn(token.trim());
      setToken('');
      await queryClient.invalidateQueries({ queryKey: ['session'] });
    } catch (caught) {
      setToken('');
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="sign-in">
      <form className="panel sign-in__form" onSubmit={(event) => void submit(event)} noValidate>
        <h1>Gateway console</h1>
        <p>Sign in with the gateway&apos;s admin token. It is exchanged for a session cookie and not kept.</p>
        <TextField
          label="Admin token"
          name="token"
          type="password"
          autoComplete="current-password"
          value={token}
          onChange={setToken}
          problem={problem}
        />
        <FormActions
          error={error}
          errorTitle="Sign-in failed"
          submitLabel={busy ? 'Signing in…' : 'Sign in'}
          busy={busy}
        />
      </form>
    </main>
  );
}
