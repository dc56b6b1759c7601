import { describe } from 'vitest';
import { ADMIN_URL, admin, createTestDatabase } from '../support/postgres.js';
import { describeMirrorEndToEnd } from './mirror-flow.js';

/** The mirror's flow on PostgreSQL ($n parameters, ON CONFLICT, INSERT … SELECT, bigint columns), on a database of its own. */
const available = await admin('SELECT 1');

describe.skipIf(!available)(`on PostgreSQL (${ADMIN_URL.replace(/\/\/[^@]*@/, '//')})`, () => {
  describeMirrorEndToEnd('mirror end to end', async () => {
    const database = await createTestDatabase();
    return { env: { DATABASE_URL: database.url }, drop: database.drop };
  });
});
