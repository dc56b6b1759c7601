import { existsSync } from 'node:fs';

/** Debian's chromium (`.ci/run` installs it); CHROMIUM_PATH points elsewhere. Undefined: browser tests skip. */
export const chromiumExecutable = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
  (path) => path && existsSync(path),
);

/** Without the background-networking flags Chromium keeps dialling out of a closed network. */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const NO_CHROMIUM = 'no Chromium found (CHROMIUM_PATH, /usr/bin/chromium): install it with `apt-get install -y chromium`';
