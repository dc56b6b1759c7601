import { Layout } from '../layout.js';
import { Link } from '../router.js';

/** A path the application has no page for (a mistyped or outdated link). */
export function NotFoundPage({ path }: { path: string }) {
  return (
    <Layout title="Page not found">
      <div class="panel" data-testid="not-found">
        <p>
          There is no page at <code>{path}</code>. It may have moved, or the link was mistyped.
        </p>
        <p>
          <Link href="/">Go to Usage</Link> · <Link href="/audit-log">Audit log</Link> · <Link href="/forwarding">Webhooks</Link> ·{' '}
          <Link href="/settings">Settings</Link>
        </p>
      </div>
    </Layout>
  );
}
