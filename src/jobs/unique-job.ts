import type { Agenda } from 'agenda';

/** Saves the one job of `name` for these data (see unique-jobs.ts), due at `at`. */
export async function saveUnique<T extends object>(agenda: Agenda, name: string, data: T, at: Date): Promise<void> {
  const job = agenda.create<T>(name, data);
  job.unique(Object.fromEntries(Object.entries(data).map(([key, value]) => [`data.${key}`, value])));
  job.schedule(at);
  await job.save();
}
