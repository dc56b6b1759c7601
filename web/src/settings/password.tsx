import { useState } from 'preact/hooks';
import { changePassword, loadSession } from '../auth-api.js';
import { ErrorMessage, Field, inputValue, NewPasswordField, useSubmit } from '../form.js';
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
        <Field
          label="Current password"
          type="password"
          name="currentPassword"
          autocomplete="current-password"
          required
          value={current}
          onInput={(e) => setCurrent(inputValue(e))}
        />
        <NewPasswordField label="New password" name="newPassword" value={next} onValue={setNext} note="Your other sessions end." />
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
