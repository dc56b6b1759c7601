import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgendaUsageJobStore } from '../../src/jobs/usage-job-store.js';
import { usageBaseInput } from '../../src/services/usage-base.input.js';
import { DEMO_BASES } from '../support/factories.js';
import { parsed, refusal } from '../support/service-calls.js';
import { startTestServices } from '../support/test-services.js';

/**
 * The daily schedule's rules (UsageScheduleService: each tracked base's job kept in step with its row, its local hour,
 * the spread), with the real Agenda job store planning but not running jobs; no HTTP. What Agenda does with the jobs
 * (runs, retries, locks, restarts): test/jobs/usage-schedule.e2e.test.ts.
 */

/** What the schedule should say: the hour's next occurrence in the zone after now. */
const nextAt = (hour: number, zone: string) => {
  const now = DateTime.now().setZone(zone);
  let at = now.set({ hour, minute: 0, second: 0, millisecond: 0 });
  if (at <= now) at = at.plus({ days: 1 }).set({ hour });
  return at.toUTC().toISO();
};

async function withServices(env: Record<string, string>) {
  const t = await startTestServices(env);
  const track = (name: string, extra: Record<string, unknown> = {}) =>
    t.services.usageBases.create(t.accountId, parsed(usageBaseInput.create, { baseId: t.baseId(name), ...extra }));
  const nextRunAt = async (usageBaseId: string) =>
    (await t.services.usageSchedule.schedule(t.accountId, usageBaseId)).nextRunAt?.toISOString();
  const jobs = () => new AgendaUsageJobStore(t.scheduler.agenda);
  return { t, track, nextRunAt, jobs };
}

describe('daily usage jobs, without a spread', () => {
  let s: Awaited<ReturnType<typeof withServices>>;
  beforeAll(async () => {
    s = await withServices({ USAGE_SPREAD_SECONDS: '0' });
  });
  afterAll(() => s?.t.close());

  it('plans a new base at its local hour, with no run yet', async () => {
    const base = await s.track(DEMO_BASES.catalog, { scheduledHour: 7, timezone: 'Asia/Kolkata' });
    const schedule = await s.t.services.usageSchedule.schedule(s.t.accountId, base.id);
    expect({ nextRunAt: schedule.nextRunAt?.toISOString(), lastRun: schedule.lastRun }).toEqual({
      nextRunAt: nextAt(7, 'Asia/Kolkata'),
      lastRun: null,
    });
    expect(await refusal(() => s.t.services.usageSchedule.schedule(s.t.other.accountId, base.id))).toBe('not_found');
  });

  it('moves the job at once when the hour or zone changes, and removes it with the base', async () => {
    const base = await s.track(DEMO_BASES.marketing, { scheduledHour: 5 });
    expect(await s.nextRunAt(base.id)).toBe(nextAt(5, 'UTC'));
    await s.t.services.usageBases.update(
      s.t.accountId,
      base.id,
      parsed(usageBaseInput.update, { scheduledHour: 22, timezone: 'America/New_York' }),
    );
    expect(await s.nextRunAt(base.id)).toBe(nextAt(22, 'America/New_York'));
    expect((await s.jobs().all()).has(base.id)).toBe(true);
    await s.t.services.usageBases.remove(s.t.accountId, base.id);
    expect((await s.jobs().all()).has(base.id)).toBe(false);
  });
});

describe('spread', () => {
  let s: Awaited<ReturnType<typeof withServices>>;
  beforeAll(async () => {
    s = await withServices({ USAGE_SPREAD_SECONDS: '300' });
  });
  afterAll(() => s?.t.close());

  it('spreads bases sharing an hour over the first minutes of it, each at a fixed place', async () => {
    // An hour far from now: one just begun would have bases planned in it today and others tomorrow.
    const hour = (new Date().getUTCHours() + 12) % 24;
    const bases = [];
    for (const name of Object.values(DEMO_BASES)) bases.push(await s.track(name, { scheduledHour: hour }));
    const planned = await Promise.all(bases.map((b) => s.nextRunAt(b.id)));
    const hourStart = Date.parse(nextAt(hour, 'UTC')!);
    for (const at of planned) {
      expect(Date.parse(at!) - hourStart).toBeGreaterThanOrEqual(0);
      expect(Date.parse(at!) - hourStart).toBeLessThan(300_000);
    }
    expect(new Set(planned).size).toBe(bases.length);
    // The same base keeps its place when it is planned again.
    await s.t.services.usageBases.update(
      s.t.accountId,
      bases[0]!.id,
      parsed(usageBaseInput.update, { scheduledHour: hour, baseName: 'renamed' }),
    );
    expect(await s.nextRunAt(bases[0]!.id)).toBe(planned[0]);
  });
});
