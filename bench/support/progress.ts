/** Progress goes to stderr so that stdout carries only the markdown report. */
export const progress = (message: string) => process.stderr.write(`[bench] ${message}\n`);
