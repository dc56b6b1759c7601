import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { nextDailyRun, runInstantOn, todaysRun } from '../../src/services/daily-schedule.js';

/** The clock is injected: "now" is one minute before local midnight starting the day under test. */
const justBefore = (localDay: string, zone: string) => DateTime.fromISO(localDay, { zone }).minus({ minutes: 1 }).toJSDate();

interface Case {
  zone: string;
  day: string;
  /** hour → expected UTC instant */
  expected: Record<number, string>;
  why: string;
}

const cases: Case[] = [
  {
    zone: 'UTC',
    day: '2026-03-29',
    why: 'no DST',
    expected: {
      0: '2026-03-29T00:00:00.000Z',
      2: '2026-03-29T02:00:00.000Z',
      3: '2026-03-29T03:00:00.000Z',
      23: '2026-03-29T23:00:00.000Z',
    },
  },
  {
    zone: 'UTC',
    day: '2026-10-25',
    why: 'no DST',
    expected: {
      0: '2026-10-25T00:00:00.000Z',
      2: '2026-10-25T02:00:00.000Z',
      3: '2026-10-25T03:00:00.000Z',
      23: '2026-10-25T23:00:00.000Z',
    },
  },
  // 02:00 CET → 03:00 CEST: hour 2 is in the gap and runs at the switch, with hour 3.
  {
    zone: 'Europe/Berlin',
    day: '2026-03-29',
    why: 'spring forward',
    expected: {
      0: '2026-03-28T23:00:00.000Z',
      2: '2026-03-29T01:00:00.000Z',
      3: '2026-03-29T01:00:00.000Z',
      23: '2026-03-29T21:00:00.000Z',
    },
  },
  // 03:00 CEST → 02:00 CET: hour 2 happens twice and runs at the first.
  {
    zone: 'Europe/Berlin',
    day: '2026-10-25',
    why: 'fall back',
    expected: {
      0: '2026-10-24T22:00:00.000Z',
      2: '2026-10-25T00:00:00.000Z',
      3: '2026-10-25T02:00:00.000Z',
      23: '2026-10-25T22:00:00.000Z',
    },
  },
  {
    zone: 'America/New_York',
    day: '2026-03-08',
    why: 'spring forward',
    expected: {
      0: '2026-03-08T05:00:00.000Z',
      2: '2026-03-08T07:00:00.000Z',
      3: '2026-03-08T07:00:00.000Z',
      23: '2026-03-09T03:00:00.000Z',
    },
  },
  {
    zone: 'America/New_York',
    day: '2026-11-01',
    why: 'fall back (01:00 repeats, 02:00 once)',
    expected: {
      0: '2026-11-01T04:00:00.000Z',
      2: '2026-11-01T07:00:00.000Z',
      3: '2026-11-01T08:00:00.000Z',
      23: '2026-11-02T04:00:00.000Z',
    },
  },
  {
    zone: 'Asia/Kolkata',
    day: '2026-03-29',
    why: 'no DST, +05:30',
    expected: {
      0: '2026-03-28T18:30:00.000Z',
      2: '2026-03-28T20:30:00.000Z',
      3: '2026-03-28T21:30:00.000Z',
      23: '2026-03-29T17:30:00.000Z',
    },
  },
  {
    zone: 'Asia/Kolkata',
    day: '2026-10-25',
    why: 'no DST, +05:30',
    expected: {
      0: '2026-10-24T18:30:00.000Z',
      2: '2026-10-24T20:30:00.000Z',
      3: '2026-10-24T21:30:00.000Z',
      23: '2026-10-25T17:30:00.000Z',
    },
  },
  // 02:45 +12:45 → 03:45 +13:45: hour 3 is in the gap and runs at the switch (local 03:45).
  {
    zone: 'Pacific/Chatham',
    day: '2026-09-27',
    why: 'spring forward at :45',
    expected: {
      0: '2026-09-26T11:15:00.000Z',
      2: '2026-09-26T13:15:00.000Z',
      3: '2026-09-26T14:00:00.000Z',
      23: '2026-09-27T09:15:00.000Z',
    },
  },
  // 03:45 +13:45 → 02:45 +12:45: hour 3 happens twice and runs at the first.
  {
    zone: 'Pacific/Chatham',
    day: '2026-04-05',
    why: 'fall back at :45',
    expected: {
      0: '2026-04-04T10:15:00.000Z',
      2: '2026-04-04T12:15:00.000Z',
      3: '2026-04-04T13:15:00.000Z',
      23: '2026-04-05T10:15:00.000Z',
    },
  },
  // 02:00 +10:30 → 02:30 +11:00 (a 30-minute gap): hour 2 runs at the switch (local 02:30).
  {
    zone: 'Australia/Lord_Howe',
    day: '2026-10-04',
    why: '30-minute spring forward',
    expected: {
      0: '2026-10-03T13:30:00.000Z',
      2: '2026-10-03T15:30:00.000Z',
      3: '2026-10-03T16:00:00.000Z',
      23: '2026-10-04T12:00:00.000Z',
    },
  },
  // 02:00 +11:00 → 01:30 +10:30: 01:30–02:00 repeats; 02:00 happens once.
  {
    zone: 'Australia/Lord_Howe',
    day: '2026-04-05',
    why: '30-minute fall back',
    expected: {
      0: '2026-04-04T13:00:00.000Z',
      2: '2026-04-04T15:30:00.000Z',
      3: '2026-04-04T16:30:00.000Z',
      23: '2026-04-05T12:30:00.000Z',
    },
  },
];

describe('daily schedule', () => {
  for (const { zone, day, expected, why } of cases) {
    for (const [hour, instant] of Object.entries(expected)) {
      it(`${zone} ${day} (${why}) hour ${hour} → ${instant}`, () => {
        const next = nextDailyRun(Number(hour), zone, justBefore(day, zone));
        expect(next.runAt.toISOString()).toBe(instant);
        expect(next.localDay).toBe(day);
      });
    }
  }

  it('runs a repeated hour once: the run after the first occurrence is the next day', () => {
    const first = runInstantOn('2026-10-25', 2, 'Europe/Berlin');
    const next = nextDailyRun(2, 'Europe/Berlin', first);
    expect(next.localDay).toBe('2026-10-26');
    expect(next.runAt.toISOString()).toBe('2026-10-26T01:00:00.000Z');
  });

  it('steps day by day across a year in every zone with exactly one run per local day', () => {
    for (const zone of ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Pacific/Chatham', 'Australia/Lord_Howe']) {
      for (const hour of [0, 2, 3, 23]) {
        let now = justBefore('2026-01-01', zone);
        const days: string[] = [];
        for (let i = 0; i < 365; i++) {
          const next = nextDailyRun(hour, zone, now);
          expect(next.runAt.getTime()).toBeGreaterThan(now.getTime());
          days.push(next.localDay);
          now = next.runAt;
        }
        expect(new Set(days).size).toBe(365);
        expect(days[0]).toBe('2026-01-01');
        expect(days[364]).toBe('2026-12-31');
      }
    }
  });

  it('tells whether today’s run is already due (catch-up)', () => {
    const now = new Date('2026-11-21T10:00:00.000Z');
    expect(todaysRun(9, 'UTC', now)).toEqual({ runAt: new Date('2026-11-21T09:00:00.000Z'), localDay: '2026-11-21' });
    expect(todaysRun(11, 'UTC', now)).toBeUndefined();
    expect(todaysRun(23, 'Asia/Kolkata', now)).toBeUndefined();
    expect(todaysRun(15, 'Asia/Kolkata', now)?.localDay).toBe('2026-11-21');
  });
});
