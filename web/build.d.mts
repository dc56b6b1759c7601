/** Builds web/src into dist/web (or `outDir`): the hashed bundle, its CSS, and index.html. */
export function buildWeb(options?: {
  outDir?: string;
}): Promise<{ outDir: string; script: string; style: string /** the chunks behind sign-in */; chunks: string[] }>;
export const WEB_OUT_DIR: string;
