import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Projects of one group in the order they start: the longest files first, the many short ones last. */
const PROJECT_ORDER = ['processes', 'services', 'http'];

/**
 * The order of a run: groups as vitest orders them (sequence.groupOrder), and within a group the projects whose files
 * take longest first, so that the last files to start are short and the workers end together. Vitest's own order
 * starts a group's projects alphabetically: the long process files (replicas, Chromium) started halfway and a long
 * service file came last, with the other workers idle. Each project's files keep vitest's order (longest first by its
 * cache of durations, else largest first), and stay together: a worker is reused only within a project (isolate:
 * false), and interleaving them doubled the time spent importing modules.
 */
export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ordered = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const index = PROJECT_ORDER.indexOf(file.project.name);
      return index < 0 ? PROJECT_ORDER.length : index;
    };
    const position = new Map(ordered.map((file, i) => [file, i]));
    return [...ordered].sort(
      (a, b) =>
        a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder ||
        rank(a) - rank(b) ||
        position.get(a)! - position.get(b)!,
    );
  }
}
