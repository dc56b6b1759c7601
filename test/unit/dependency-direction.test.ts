import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');
const REST = join(SRC, 'rest');

/** Every module a source file names: static imports, re-exports and dynamic `import()`. */
function importsOf(file: string): string[] {
  return ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles.map((imported) => imported.fileName);
}

function sourceFilesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => join(folder, name));
}

/** `file → specifier` for each import of the files under `folder` that `matches` (target: the resolved relative path). */
function importsMatching(folder: string, matches: (specifier: string, target: string | undefined) => boolean): string[] {
  return sourceFilesUnder(folder).flatMap((file) =>
    importsOf(file)
      .filter((specifier) => matches(specifier, specifier.startsWith('.') ? resolve(dirname(file), specifier) : undefined))
      .map((specifier) => `${relative(SRC, file)} → ${specifier}`),
  );
}

const isUnder = (target: string | undefined, folder: string) => target !== undefined && !relative(folder, target).startsWith('..');

/** What services must not depend on (EXAMPLES.md): the transports and the job runner; the OpenAPI library is REST's. */
const TRANSPORT_PACKAGES = /^(express|@apollo\/|type-graphql|agenda|@asteasolutions\/zod-to-openapi)(\/|$)/;

describe('dependency direction (rest, resolvers, jobs → services)', () => {
  it('reads the imports it checks', () => {
    // Guards the checks below against passing because nothing was read.
    const resolverImports = sourceFilesUnder(join(SRC, 'resolvers')).flatMap(importsOf);
    expect(resolverImports).toContain('type-graphql');
    expect(resolverImports.some((specifier) => specifier.startsWith('../services/'))).toBe(true);
    expect(importsMatching(join(SRC, 'rest'), (_, target) => isUnder(target, join(SRC, 'services'))).length).toBeGreaterThan(0);
  });

  it('resolvers take their input rules from the services, never from src/rest', () => {
    expect(importsMatching(join(SRC, 'resolvers'), (_, target) => isUnder(target, REST))).toEqual([]);
  });

  it('services import neither src/rest nor a transport or the OpenAPI library', () => {
    expect(importsMatching(join(SRC, 'services'), (specifier, target) => isUnder(target, REST) || TRANSPORT_PACKAGES.test(specifier))).toEqual([]);
  });
});
