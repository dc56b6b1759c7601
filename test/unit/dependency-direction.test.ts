import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The layers of ARCHITECTURE.md, checked on the import graph of src/ (static imports, re-exports, dynamic `import()`)
 * and on the source text (where SQL is written). Each rule names the offending `file → import` so a failure says what
 * to move.
 */
const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');

interface Edge {
  /** Importing file, relative to src/ (`services/account.service.ts`). */
  from: string;
  specifier: string;
  /** The imported file relative to src/ (`auth/api-key.ts`, `entities/index.ts`), for relative specifiers only. */
  to?: string;
}

function sourceFilesUnder(folder: string): string[] {
  return readdirSync(join(SRC, folder), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) =>
      relative(SRC, join(SRC, folder, name))
        .split(sep)
        .join('/'),
    );
}

const ALL_FILES = sourceFilesUnder('.');

/** `../auth/api-key.js` from `services/x.ts` → `auth/api-key.ts`; a folder → its `index.ts`. */
function resolvedFile(from: string, specifier: string): string {
  const path = relative(SRC, resolve(SRC, dirname(from), specifier))
    .split(sep)
    .join('/')
    .replace(/\.js$/, '');
  return existsSync(join(SRC, `${path}.ts`)) ? `${path}.ts` : path.endsWith('.ts') ? path : `${path}/index.ts`;
}

const EDGES: Edge[] = ALL_FILES.flatMap((from) =>
  ts.preProcessFile(readFileSync(join(SRC, from), 'utf8'), true, true).importedFiles.map(({ fileName: specifier }) => ({
    from,
    specifier,
    to: specifier.startsWith('.') ? resolvedFile(from, specifier) : undefined,
  })),
);

/** `a/b/c.ts` → `a`; a file directly in src/ is its own layer (`app.ts`, `services.ts`). */
const layerOf = (path: string) => path.split('/')[0]!;
const isUnder = (path: string | undefined, folder: string) => path !== undefined && (path === folder || path.startsWith(`${folder}/`));
const show = (edges: Edge[]) => edges.map((edge) => `${edge.from} → ${edge.specifier}`);
const importsFrom = (folder: string) => EDGES.filter((edge) => isUnder(edge.from, folder));

/** What services must not depend on: transports, the HTTP layer, the job runner and its backends, the composition. */
const FORBIDDEN_IN_SERVICES = [
  'rest',
  'http',
  'graphql',
  'resolvers',
  'web',
  'auth',
  'jobs/backends',
  'cli.ts',
  'app.ts',
  'server.ts',
  'main.ts',
  'services.ts',
];
/** Transport packages (the OpenAPI library is REST's) and database drivers (repositories' business). */
const FORBIDDEN_PACKAGES_IN_SERVICES =
  /^(express|@apollo\/|type-graphql|graphql-ws|agenda|@agendajs\/|@asteasolutions\/zod-to-openapi|helmet|cors|better-sqlite3|pg|mongodb)(\/|$)/;

/** Outside src/rest, only the app factory mounts its routers, and the metrics label requests by its route table. */
const MAY_IMPORT_REST = new Set(['app.ts', 'metrics/route-label.ts']);

/**
 * Where SQL text, query builders and driver handles may appear (ARCHITECTURE.md: repositories own them). Besides
 * src/repositories: migrations, the job stores' own backends, the sandbox (not ours: the emulated platform), and
 * database.ts, which opens the DataSource (driver pragmas, migrations).
 */
const SQL_HOMES = ['repositories', 'migrations', 'jobs/backends', 'sandbox', 'database.ts'];

/** A string or template literal that is SQL: starts with a statement keyword in capitals. */
const SQL_TEXT = /^\s*(SELECT|INSERT INTO|UPDATE|DELETE FROM|WITH|PRAGMA|CREATE|ALTER|DROP)\s/;

/** What a raw query or the TypeORM driver is reached through (`this.dataSource.query(…)`, `manager.driver`). */
const DATABASE_HANDLE = /(dataSource|manager|queryRunner|runner|connection|db)$/i;

/** Why `file` counts as holding SQL or driver internals, or undefined. */
function sqlIn(file: string): string | undefined {
  const text = readFileSync(join(SRC, file), 'utf8');
  if (/\bsqliteHandle\b|\bdatabaseConnection\b/.test(text)) return 'a driver handle';
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  let found: string | undefined;
  const visit = (node: ts.Node): void => {
    if (found) return;
    if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && SQL_TEXT.test(node.text)) {
      found = `SQL text (${node.text.trim().slice(0, 40)}…)`;
    } else if (ts.isTemplateExpression(node) && SQL_TEXT.test(node.head.text)) {
      found = `SQL text (${node.head.text.trim().slice(0, 40)}…)`;
    } else if (ts.isPropertyAccessExpression(node) && node.name.text === 'createQueryBuilder') {
      found = `a query builder (${node.getText(source)})`;
    } else if (ts.isPropertyAccessExpression(node) && DATABASE_HANDLE.test(node.expression.getText(source))) {
      const name = node.name.text;
      if (name === 'query') found = `a raw query (${node.getText(source)})`;
      else if (name === 'driver') found = `the TypeORM driver (${node.getText(source)})`;
    }
    if (!found) ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('dependency direction (ARCHITECTURE.md layers)', () => {
  it('reads the imports it checks', () => {
    // Guards the checks below against passing because nothing was read.
    expect(importsFrom('resolvers').map((edge) => edge.specifier)).toContain('type-graphql');
    expect(importsFrom('rest').some((edge) => isUnder(edge.to, 'services'))).toBe(true);
    expect(importsFrom('auth').some((edge) => isUnder(edge.to, 'services'))).toBe(true);
    expect(importsFrom('services').some((edge) => isUnder(edge.to, 'repositories'))).toBe(true);
    expect(sqlIn('repositories/advisory-locks.ts')).toMatch(/^SQL text/);
    expect(sqlIn('repositories/deployment-key.repository.ts')).toMatch(/^a query builder/);
    expect(sqlIn('repositories/raw-rows.ts')).toBe('a driver handle');
    expect(sqlIn('repositories/run-sql.ts')).toMatch(/^(the TypeORM driver|a raw query)/);
  });

  it('resolvers take their input rules from the services, never from src/rest', () => {
    expect(show(importsFrom('resolvers').filter((edge) => isUnder(edge.to, 'rest')))).toEqual([]);
  });

  it('services import no transport, HTTP helper, job backend, driver or composition module', () => {
    const inverted = importsFrom('services').filter(
      (edge) => FORBIDDEN_IN_SERVICES.some((folder) => isUnder(edge.to, folder)) || FORBIDDEN_PACKAGES_IN_SERVICES.test(edge.specifier),
    );
    expect(show(inverted)).toEqual([]);
  });

  it('repositories import only entities and each other (and their drivers)', () => {
    const outward = importsFrom('repositories').filter(
      (edge) => edge.to !== undefined && !['entities', 'repositories'].includes(layerOf(edge.to)),
    );
    expect(show(outward)).toEqual([]);
  });

  it('no two top-level folders of src/ import each other', () => {
    const layerEdges = EDGES.filter((edge) => edge.to !== undefined && layerOf(edge.from) !== layerOf(edge.to));
    const pairs = new Set(layerEdges.map((edge) => `${layerOf(edge.from)} → ${layerOf(edge.to!)}`));
    const cycles = layerEdges.filter((edge) => pairs.has(`${layerOf(edge.to!)} → ${layerOf(edge.from)}`));
    expect(show(cycles)).toEqual([]);
  });

  it('only the app factory (and the route labels of metrics) import src/rest: shared HTTP helpers live in src/http', () => {
    const intoRest = EDGES.filter((edge) => !isUnder(edge.from, 'rest') && isUnder(edge.to, 'rest') && !MAY_IMPORT_REST.has(edge.from));
    expect(show(intoRest)).toEqual([]);
  });

  it('SQL, query builders and driver handles appear only in src/repositories (and the job backends, migrations)', () => {
    const holders = ALL_FILES.filter((file) => !SQL_HOMES.some((home) => isUnder(file, home))).flatMap((file) => {
      const why = sqlIn(file);
      return why ? [`${file}: ${why}`] : [];
    });
    expect(holders).toEqual([]);
  });
});
