import type { Config } from '../../config.js';
import type { UserServiceOptions } from './user.service.js';

/** Sign-up as configured; set-password links point at PUBLIC_URL (the CLI makes them, outside the server). */
export const userOptions = (config: Config): UserServiceOptions => ({
  signupOpen: config.signup === 'open',
  publicUrl: config.publicUrl ?? `http://127.0.0.1:${config.port}`,
});
