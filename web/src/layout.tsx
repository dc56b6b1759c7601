import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { signOut } from './auth-api.js';
import { ErrorMessage } from './form.js';
import { Link, navigate, useLocation } from './router.js';
import { useSession } from './session-context.js';
import { signingOutHere } from './session-end.js';

const NAV = [
  { href: '/', label: 'Usage' },
  { href: '/audit-log', label: 'Audit log' },
  { href: '/forwarding', label: 'Webhooks' },
  { href: '/settings', label: 'Settings' },
];

/** The signed-in frame: skip link, header with navigation and sign-out, and the page in <main> (focused on navigation). */
export function Layout({ title, actions, children }: { title: string; actions?: ComponentChildren; children: ComponentChildren }) {
  const { session, setSession } = useSession();
  const { path } = useLocation();
  const [error, setError] = useState<unknown>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · basewatch`;
    heading.current?.focus();
  }, [title]);
  const onSignOut = async () => {
    try {
      signingOutHere();
      await signOut(session.csrfToken);
      // The session's GraphQL client and its cache go with the signed-in pages (web/src/signed-in.tsx).
      setSession(null);
      navigate('/sign-in', { replace: true });
    } catch (failure) {
      setError(failure);
    }
  };
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <span class="brand">
          <svg width="20" height="20" viewBox="0 0 32 32" aria-hidden="true">
            <rect width="32" height="32" rx="7" fill="#1d4ed8" />
            <path d="M7 22a9 9 0 0 1 18 0" fill="none" stroke="#fff" stroke-width="3" stroke-linecap="round" />
            <path d="M16 22l5-7" stroke="#fff" stroke-width="3" stroke-linecap="round" />
          </svg>
          basewatch
        </span>
        <nav aria-label="Main">
          <ul>
            {NAV.map(({ href, label }) => (
              <li key={href}>
                <Link href={href} aria-current={isCurrent(path, href) ? 'page' : undefined}>
                  {label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div class="who">
          <span title={session.user.email}>{session.account.name}</span>
          <button type="button" class="link" onClick={onSignOut}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main">
        <div class="page-head">
          <h1 tabIndex={-1} ref={heading}>
            {title}
          </h1>
          {actions && <div class="actions">{actions}</div>}
        </div>
        <ErrorMessage error={error} />
        {children}
      </main>
    </>
  );
}

const isCurrent = (path: string, href: string) => (href === '/' ? path === '/' || path.startsWith('/bases/') : path.startsWith(href));
