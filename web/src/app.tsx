import { useEffect, useRef, useState } from 'preact/hooks';
import { loadSession, servedSignedIn, type Session } from './auth-api.js';
import { ErrorMessage } from './form.js';
import { SetPasswordPage } from './pages/set-password.js';
import { SignInPage } from './pages/sign-in.js';
import { SignUpPage } from './pages/sign-up.js';
import { signedInRoute } from './routes.js';
import { navigate, useLocation } from './router.js';
import { onSessionEnded, SESSION_ENDED_MESSAGE, sessionStarted } from './session-end.js';

const SIGNED_OUT_PATHS = ['/sign-in', '/sign-up'];

type SignedInModule = typeof import('./signed-in.js');
let signedInModule: Promise<SignedInModule> | undefined;
/**
 * The signed-in chunk, loaded once with the first page's own: at once when the page was served to a signed-in
 * browser (beside the session).
 */
const loadSignedIn = () =>
  (signedInModule ??= Promise.all([import('./signed-in.js'), signedInRoute(location.pathname).load()]).then(([module]) => module));
if (servedSignedIn()) void loadSignedIn();

/** Loads the session, then shows the sign-in pages or the signed-in pages by path. */
export function App() {
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [signedIn, setSignedIn] = useState<SignedInModule | null>(null);
  const csrf = useRef<string | undefined>(undefined);
  const afterSignIn = useRef('/');
  csrf.current = session?.csrfToken;
  const { path, query } = useLocation();
  useEffect(() => {
    if (session && !signedIn) loadSignedIn().then(setSignedIn, setError);
  }, [session, signedIn]);

  useEffect(() => {
    loadSession({ first: true }).then(setSession, setError);
  }, []);
  // Ended elsewhere (sign-out everywhere, a password change, expiry): to sign-in, then back to this page.
  useEffect(
    () =>
      onSessionEnded(() => {
        if (!csrf.current) return;
        csrf.current = undefined;
        if (!SIGNED_OUT_PATHS.includes(location.pathname)) afterSignIn.current = location.pathname + location.search;
        setNotice(SESSION_ENDED_MESSAGE);
        setSession(null);
        navigate('/sign-in', { replace: true });
      }),
    [],
  );

  if (error) return <ErrorMessage error={error} />;
  if (session === undefined) return <p class="loading">Loading…</p>;

  const onSignedIn = (next: Session) => {
    setNotice(null);
    sessionStarted();
    setSession(next);
    navigate(afterSignIn.current, { replace: true });
    afterSignIn.current = '/';
  };
  if (path === '/set-password') return <SetPasswordPage token={query.get('token') ?? ''} onSignedIn={onSignedIn} />;
  if (!session) {
    if (path === '/sign-up') return <SignUpPage onSignedIn={onSignedIn} />;
    if (path !== '/sign-in') {
      // Back to the page asked for once signed in (a bookmark, a link from a colleague).
      afterSignIn.current = path + location.search;
      queueMicrotask(() => navigate('/sign-in', { replace: true }));
    }
    return <SignInPage onSignedIn={onSignedIn} notice={notice} />;
  }
  if (SIGNED_OUT_PATHS.includes(path)) queueMicrotask(() => navigate('/', { replace: true }));
  if (!signedIn) return <p class="loading">Loading…</p>;
  const { default: SignedInApp } = signedIn;
  return <SignedInApp path={path} session={session} setSession={setSession} csrfToken={() => csrf.current} />;
}
