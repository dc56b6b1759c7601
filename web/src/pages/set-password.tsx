import { useState } from 'preact/hooks';
import { loadSession, setPassword, type Session } from '../auth-api.js';
import { ErrorMessage, NewPasswordField, useSubmit } from '../form.js';
import { Link } from '../router.js';

/** The page of the CLI's one-time link (`cli user create`): choose a password, and be signed in. */
export function SetPasswordPage({ token, onSignedIn }: { token: string; onSignedIn: (session: Session) => void }) {
  const [password, setValue] = useState('');
  const { busy, error, submit } = useSubmit(async () => {
    await setPassword(token, password);
    const session = await loadSession();
    if (session) onSignedIn(session);
  });
  return (
    <main class="auth" id="main">
      <h1>Choose your password</h1>
      {!token ? (
        <p class="error">This link has no token: ask your operator for a new one.</p>
      ) : (
        <form onSubmit={submit}>
          <NewPasswordField label="New password" name="password" value={password} onValue={setValue} />
          <ErrorMessage error={error} />
          <button type="submit" disabled={busy}>
            Set password and sign in
          </button>
        </form>
      )}
      <p>
        <Link href="/sign-in">Sign in</Link> instead
      </p>
    </main>
  );
}
