import { useMutation } from '../graphql-hooks.js';
import { useState } from 'preact/hooks';
import { ErrorMessage, Field, inputValue } from '../form.js';
import { graphql } from '../graphql.js';
import { useSession } from '../session-context.js';

const UPDATE_ACCOUNT = graphql(`
  mutation UpdateAccount($name: String!) { updateAccount(input: { name: $name }) { viewer { id name } } }
`);

export function AccountNameSection() {
  const { session, setSession } = useSession();
  const [name, setName] = useState(session.account.name);
  const [saved, setSaved] = useState(false);
  const [update, { loading, error }] = useMutation(UPDATE_ACCOUNT);
  const onSubmit = async (event: Event) => {
    event.preventDefault();
    setSaved(false);
    const result = await update({ variables: { name } }).catch(() => null);
    const renamed = result?.data?.updateAccount.viewer.name;
    if (renamed === undefined) return;
    setSession({ ...session, account: { ...session.account, name: renamed } });
    setName(renamed);
    setSaved(true);
  };
  return (
    <section aria-labelledby="account-heading">
      <h2 id="account-heading">Account</h2>
      <form onSubmit={onSubmit} class="inline">
        <Field label="Account name" name="accountName" required maxLength={255} value={name} onInput={(e) => setName(inputValue(e))} />
        <button type="submit" disabled={loading}>
          Save name
        </button>
      </form>
      <ErrorMessage error={error} />
      {saved && <p role="status">Saved.</p>}
    </section>
  );
}
