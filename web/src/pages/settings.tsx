import { Layout } from '../layout.js';
import { AccountNameSection } from '../settings/account-name.js';
import { ApiKeysSection } from '../settings/api-keys.js';
import { ConnectionSection } from '../settings/connection.js';
import { PasswordSection } from '../settings/password.js';
import { SessionsSection } from '../settings/sessions.js';

export function SettingsPage() {
  return (
    <Layout title="Settings">
      <ConnectionSection />
      <ApiKeysSection />
      <AccountNameSection />
      <PasswordSection />
      <SessionsSection />
    </Layout>
  );
}
