import { useState } from 'preact/hooks';
import { signIn, type Session } from '../auth-api.js';
import { ErrorMessage, Field, inputValue, useSubmit } from '../form.js';
import { Link } from '../router.js';

/** `notice`: why the person is here, e.g. their session ended elsewhere. */
export function SignInPage({ onSignedIn, notice }: { onSignedIn: (session: Session) => void; notice?: string | null }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { busy, error, submit } = useSubmit(async () => onSignedIn(await signIn(email, password)));
  return (
    <main class="auth" id="main">
      <h1>Sign in to basewatch</h1>
      {notice && (
        <p class="notice" role="status" data-testid="sign-in-notice">
          {notice}
        </p>
      )}
      <form onSubmit={submit}>
        <Field
          label="E-mail"
          type="email"
          name="email"
          autocomplete="email"
          required
          value={email}
          onInput={(e) => setEmail(inputValue(e))}
        />
        <Field
          label="Password"
          type="password"
          name="password"
          autocomplete="current-password"
          required
          value={password}
          onInput={(e) => setPassword(inputValue(e))}
        />
        <ErrorMessage error={error} />
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <p>
        No account yet? <Link href="/sign-up">Sign up</Link>
      </p>
    </main>
  );
}
