import { useState } from 'preact/hooks';
import { changePassword, loadSession } from '../auth-api.js';
import { ErrorMessage, Field, inputValue, useSubmit } from '../form.js';
import { useSession } from '../session-context.js';

/** Changing the password ends every other session; this one continues with a fresh cookie and CSRF token. */
export function PasswordSection() {
  const { session, setSession } = useSession();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [done, setDone] = useState(false);
  const { busy, error, submit } = useSubmit(async () => {
    setDone(false);
    await changePassword(session.csrfToken, current, next);
    setCurrent('');
    setNext('');
    setDone(true);
    setSession(await loadSession());
  });
  return (
    <section aria-labelledby="password-heading">
      <h2 id="password-heading">Password</h2>
      <form onSubmit={submit} class="stacked">
        <input type="email" name="username" autocomplete="username" value={session.user.email} readOnly hidden />
        <Field label="Current password" type="password" name="currentPassword" autocomplete="current-password" required value={current} onInput={(e) => setCurrent(inputValue(e))} />
        <Field
          label="New password"
          type="password"
          name="newPassword"
          autocomplete="new-password"
          required
          minLength={10}
          hint="At least 10 characters, and not your e-mail. Your other sessions end."
          value={next}
          onInput={(e) => setNext(inputValue(e))}
        />
        <div>
          <button type="submit" disabled={busy}>
            Change password
          </button>
        </div>
      </form>
      <ErrorMessage error={error} />
      {done && <p role="status">Password changed; every other session has ended.</p>}
    </section>
  );
}
