import { useQuery } from '../graphql-hooks.js';
import { ErrorMessage } from '../form.js';
import { graphql } from '../graphql.js';
import { Layout } from '../layout.js';
import { AccountNameSection } from '../settings/account-name.js';
import { API_KEY_PAGE_FIELDS, API_KEYS_PAGE, ApiKeysSection } from '../settings/api-keys.js';
import { CONNECTION_FIELDS, ConnectionSection, SHARED_CONNECTION_FIELDS } from '../settings/connection.js';
import { PasswordSection } from '../settings/password.js';
import { SessionsSection } from '../settings/sessions.js';

/** Everything the sections first show, in one request, handed to them (the API key section's first page too). */
const SETTINGS = graphql(
  `
    query Settings($apiKeysFirst: Int!) {
      viewer {
        id
        connection { ...ConnectionFields }
        sharedConnection { ...SharedConnectionFields }
        apiKeys(first: $apiKeysFirst) { ...ApiKeyPageFields }
      }
    }
  `,
  [CONNECTION_FIELDS, SHARED_CONNECTION_FIELDS, API_KEY_PAGE_FIELDS],
);

export function SettingsPage() {
  const { data, error } = useQuery(SETTINGS, {
    variables: { apiKeysFirst: API_KEYS_PAGE },
    fetchPolicy: 'network-only',
    // The shared connection's owner is asked upstream: if that fails, the rest of the page still shows.
    errorPolicy: 'all',
  });
  return (
    <Layout title="Settings">
      <ErrorMessage error={error} />
      {data && (
        <>
          <ConnectionSection connection={data.viewer.connection} shared={data.viewer.sharedConnection} />
          <ApiKeysSection firstPage={data.viewer.apiKeys} />
        </>
      )}
      <AccountNameSection />
      <PasswordSection />
      <SessionsSection />
    </Layout>
  );
}
