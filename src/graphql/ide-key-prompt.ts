/**
 * The offline IDE asks for the API key before Altair starts, so that Altair's first introspection already carries
 * it. The form is part of the page; the script (served from our origin, after Altair's main.js) checks the key with
 * `{ __typename }`, keeps it in sessionStorage for the tab, and calls AltairGraphQL.init with it as `apiKey`.
 */

/** sessionStorage item holding the key for the tab. */
const KEY_STORAGE_ITEM = 'basewatch.graphqlIde.apiKey';

export const KEY_FORM_HTML = `
<style>
  .key-prompt { position: fixed; inset: 0; display: grid; place-items: center; padding: 1rem; background: #f6f7f9;
    color: #1f2430; font: 16px/1.5 system-ui, sans-serif; z-index: 10; }
  .key-prompt form { width: min(28rem, 100%); display: grid; gap: .5rem; padding: 1.5rem; background: #fff;
    border: 1px solid #d5d9e0; border-radius: 8px; }
  .key-prompt h1 { margin: 0 0 .5rem; font-size: 1.25rem; }
  .key-prompt label { font-weight: 600; }
  .key-prompt input, .key-prompt button { font: inherit; padding: .5rem .75rem; border-radius: 6px; }
  .key-prompt input { border: 1px solid #8a93a3; }
  .key-prompt button { justify-self: start; border: 0; background: #1d4ed8; color: #fff; cursor: pointer; }
  .key-prompt button:disabled { opacity: .6; cursor: progress; }
  .key-prompt p { margin: 0; font-size: .875rem; color: #4a5263; }
  .key-prompt #api-key-message:not(:empty) { color: #b42318; font-weight: 600; }
  .key-prompt #api-key-message.checking { color: #4a5263; font-weight: 400; }
  #api-key-change { position: fixed; top: 14px; right: 12rem; z-index: 10; font: 12px system-ui, sans-serif;
    padding: .25rem .5rem; border: 1px solid #8a93a3; border-radius: 4px; background: #fff; color: #1f2430; cursor: pointer; }
</style>
<main class="key-prompt" id="api-key-prompt">
  <form id="api-key-form">
    <h1>basewatch GraphQL IDE</h1>
    <label for="api-key">API key</label>
    <input id="api-key" name="apiKey" type="password" required autocomplete="off" spellcheck="false" autofocus
      aria-describedby="api-key-hint api-key-message">
    <p id="api-key-hint">Keys come from the start-up banner, or from
      <code>npm run cli -- key create --account &lt;id&gt;</code>. The key is kept for this browser tab.</p>
    <p id="api-key-message" role="status"></p>
    <!-- Enabled by the script: a native submission would put the key in the URL. -->
    <button type="submit" disabled>Open the IDE</button>
  </form>
</main>
<button type="button" id="api-key-change" hidden>Change API key</button>
`;

/** Browser code (not compiled: this project's TypeScript has no DOM types). */
export const KEY_PROMPT_SCRIPT = `
const ITEM = ${JSON.stringify(KEY_STORAGE_ITEM)};
const options = JSON.parse(document.getElementById('altair-options').textContent);
const prompt = document.getElementById('api-key-prompt');
const form = document.getElementById('api-key-form');
const input = document.getElementById('api-key');
const message = document.getElementById('api-key-message');
const submit = form.querySelector('button');

/** Null when the key works; otherwise what to tell the user, and whether the key itself was refused. */
async function problemWith(key) {
  try {
    const res = await fetch(options.endpointURL, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer ' + key },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    if (res.ok) return null;
    if (res.status === 401) return { refused: true, text: 'This key was refused (401). Check it, or create a new one.' };
    return { refused: false, text: 'The key could not be checked: /graphql answered HTTP ' + res.status + '.' };
  } catch {
    return { refused: false, text: 'The key could not be checked: /graphql did not answer.' };
  }
}

async function tryKey(key) {
  submit.disabled = true;
  message.className = 'checking';
  message.textContent = 'Checking the key…';
  input.removeAttribute('aria-invalid');
  const problem = await problemWith(key);
  submit.disabled = false;
  message.className = '';
  if (problem) {
    message.textContent = problem.text;
    if (problem.refused) {
      sessionStorage.removeItem(ITEM);
      input.setAttribute('aria-invalid', 'true');
    }
    input.focus();
    return;
  }
  sessionStorage.setItem(ITEM, key);
  start(key);
}

function start(key) {
  prompt.remove();
  document.querySelector('app-root').hidden = false;
  const change = document.getElementById('api-key-change');
  change.hidden = false;
  change.addEventListener('click', () => {
    sessionStorage.removeItem(ITEM);
    location.reload();
  });
  const base = options.initialEnvironments.base;
  AltairGraphQL.init({ ...options, initialEnvironments: { ...options.initialEnvironments, base: { ...base, variables: { ...base.variables, apiKey: key } } } });
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  const key = input.value.trim();
  if (key) tryKey(key);
});
const saved = sessionStorage.getItem(ITEM);
if (saved) {
  input.value = saved;
  tryKey(saved);
} else {
  submit.disabled = false;
}
`;
