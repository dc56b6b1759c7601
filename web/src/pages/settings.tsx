import { Layout } from '../layout.js';
import { AccountNameSection } from '../settings/account-name.js';
import { ApiKeysSection } from '../settings/api-keys.js';
import { ConnectionSection } from '../settings/connection.js';

export function SettingsPage() {
  return (
    <Layout title="Settings">
      <ConnectionSection />
      <ApiKeysSection />
      <AccountNameSection />
    </Layout>
  );
}
