/**
 * Where the upstream sends the browser back after authorization (registered with the OAuth integration): a REST
 * route, the web application's return page and the OAuth browser cookie's path.
 */
export const OAUTH_CALLBACK_PATH = '/oauth/airtable/callback';
