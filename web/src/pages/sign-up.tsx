import { useState } from 'preact/hooks';
import { signUp, type Session } from '../auth-api.js';
import { ErrorMessage, Field, inputValue, NewPasswordField, useSubmit } from '../form.js';
import { Link } from '../router.js';

export function SignUpPage({ onSignedIn }: { onSignedIn: (session: Session) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [accountName, setAccountName] = useState('');
  const { busy, error, submit } = useSubmit(async () => onSignedIn(await signUp(email, password, accountName.trim() || undefined)));
  return (
    <main class="auth" id="main">
      <h1>Create your basewatch account</h1>
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
        <NewPasswordField label="Password" name="password" value={password} onValue={setPassword} />
        <Field
          label="Account name (optional)"
          name="accountName"
          autocomplete="organization"
          hint="Your team; your e-mail if left empty."
          value={accountName}
          onInput={(e) => setAccountName(inputValue(e))}
        />
        <ErrorMessage error={error} />
        <button type="submit" disabled={busy}>
          {busy ? 'Creating…' : 'Sign up'}
        </button>
      </form>
      <p>
        Already have an account? <Link href="/sign-in">Sign in</Link>
      </p>
    </main>
  );
}
