import { gql } from '@apollo/client';
import { useQuery } from '@apollo/client/react';
import { ErrorMessage } from '../form.js';
import { Layout } from '../layout.js';
import { AccountNameSection } from '../settings/account-name.js';
import { API_KEY_PAGE_FIELDS, API_KEYS_PAGE, ApiKeysSection } from '../settings/api-keys.js';
import { CONNECTION_FIELDS, ConnectionSection } from '../settings/connection.js';
import { PasswordSection } from '../settings/password.js';
import { SessionsSection } from '../settings/sessions.js';

/** Everything the sections first show, in one request; each section then reads its part from the cache. */
const SETTINGS = gql`
  query Settings {
    viewer {
      id
      connection { ${CONNECTION_FIELDS} }
      apiKeys(first: ${API_KEYS_PAGE}) { ${API_KEY_PAGE_FIELDS} }
    }
  }
`;

export function SettingsPage() {
  const { data, error } = useQuery(SETTINGS, { fetchPolicy: 'network-only' });
  return (
    <Layout title="Settings">
      <ErrorMessage error={error} />
      {data && (
        <>
          <ConnectionSection />
          <ApiKeysSection />
        </>
      )}
      <AccountNameSection />
      <PasswordSection />
      <SessionsSection />
    </Layout>
  );
}
