import { describe, expect, it } from 'vitest';
import { PASSWORD, uniqueEmail } from '../auth/browser.js';
import { refusal } from '../support/service-calls.js';
import { serviceDatabases, servicesOn } from '../support/test-services.js';

/**
 * The users-and-sessions tables and the session lookup on each database (the migration and the SQL of PostgreSQL
 * too). Cookies, CSRF and the routes: test/auth/web-sessions.test.ts.
 */
for (const { name, database } of await serviceDatabases()) {
  describe(`web sessions on ${name}`, () => {
    const t = servicesOn(database);

    it('signs up, finds the session by its token, lists and ends sessions, and refuses a duplicate e-mail', async () => {
      const { users, sessions } = t.services;
      const email = uniqueEmail();
      const first = await users.signUp({ email, password: PASSWORD }, 'first agent');
      const caller = await sessions.authenticate(first.token);
      expect(caller).toMatchObject({ user: { email }, account: { id: first.view.account.id } });
      expect(await t.services.usageBases.list(caller!.account.id)).toEqual([]);

      const second = await users.signIn({ email, password: PASSWORD }, 'second agent');
      const secondCaller = (await sessions.authenticate(second.token))!;
      const listed = await sessions.list(secondCaller.user.id, secondCaller.sessionId);
      expect(listed.map((session) => session.userAgent).sort()).toEqual(['first agent', 'second agent']);
      expect(await refusal(() => users.signUp({ email, password: PASSWORD }))).toBe('conflict');
      expect(await refusal(() => users.signIn({ email, password: `${PASSWORD}!` }))).toBe('unauthorized');

      await sessions.revokeAll(secondCaller.user.id);
      expect(await sessions.authenticate(first.token)).toBeNull();
      expect(await sessions.authenticate(second.token)).toBeNull();
    });
  });
}
