// The Go module aggregation.example/client as released: the generated client (clients/go) with the hand-written
// layer of go/ (token authentication, typed errors, retries, webhook verification and their tests, README), the
// POSTs that take an Idempotency-Key (idempotency.gen.go, from the description) and the shared webhook and enrollment
// signature vectors as its testdata, assembled into a folder that `go vet` and `go test` must pass.
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { withLock } from '@aggregation/contract-tests/cached-venv';
import { idempotentPosts } from './idempotency.ts';
import { clientsDir, goClientDir, packageDir, repoRoot } from './paths.ts';
import { webhookVectorsPath, writeEnrollmentVectors } from './python-package.ts';
import { run } from './run.ts';
import { hashFiles } from './stamp.ts';

export const goLayerDir = join(packageDir, 'go');

/** The POSTs that take an Idempotency-Key, from the description, for the module's RetryTransport. */
function idempotencyModule(): string {
  const paths = idempotentPosts().map((path) => `\t${JSON.stringify(path)},\n`);
  return `// Code generated from the description when the module is assembled. DO NOT EDIT.\n\npackage aggregation\n\n// idempotentPosts are the paths of the POST operations that declare an Idempotency-Key header.\nvar idempotentPosts = []string{\n${paths.join('')}}\n`;
}

/** Writes the module's files into `outDir` (run generateGoClient first): the generated client and the layer. */
export function assembleGoModule(outDir: string): string {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(join(outDir, 'testdata'), { recursive: true });
  for (const file of ['client.gen.go', 'go.mod']) cpSync(join(goClientDir, file), join(outDir, file));
  for (const file of readdirSync(goLayerDir)) cpSync(join(goLayerDir, file), join(outDir, file));
  writeFileSync(join(outDir, 'idempotency.gen.go'), idempotencyModule());
  cpSync(join(repoRoot, 'LICENSE'), join(outDir, 'LICENSE'));
  cpSync(webhookVectorsPath, join(outDir, 'testdata', 'webhook-signatures.json'));
  writeEnrollmentVectors(join(outDir, 'testdata', 'enrollment-signatures.json'));
  return outDir;
}

/** The files `go mod tidy` completes, kept with the record of a module that passed `go vet` and `go test`. */
const tidied = ['go.mod', 'go.sum'];

/** What a module's checks depend on: every file of the folder, by its name in it, and the Go that checks it. */
export function moduleHash(dir: string, goVersion: string): string {
  const files = readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
  return hashFiles(files, { root: dir, extra: [goVersion] });
}

/**
 * Writes the module into `outDir` (run generateGoClient first), completes its go.sum, then vets and tests it. Both
 * `npm run release:pack` and the polyglot tests build the same module, often at once: the checks run once for the same
 * files on the same Go (under a lock), and a module that passed them gets the go.mod and go.sum recorded then.
 */
export async function buildGoModule(go: string, outDir: string): Promise<string> {
  assembleGoModule(outDir);
  const { stdout: goVersion } = await run(go, ['env', 'GOVERSION']);
  // In this checkout's ignored clients/, not the user's cache: a clean checkout vets and tests the module again.
  const record = join(clientsDir, '.cache', 'go-module-checked', moduleHash(outDir, goVersion.trim()));
  mkdirSync(join(record, '..'), { recursive: true });
  await withLock(`${record}.lock`, async () => {
    if (existsSync(record)) {
      for (const file of tidied) cpSync(join(record, file), join(outDir, file));
      return;
    }
    await run(go, ['mod', 'tidy'], { cwd: outDir });
    await run(go, ['vet', './...'], { cwd: outDir });
    await run(go, ['test', './...'], { cwd: outDir });
    // Written beside and renamed, so that a record is never found half made.
    const partial = `${record}.${process.pid}`;
    mkdirSync(partial, { recursive: true });
    for (const file of tidied) cpSync(join(outDir, file), join(partial, file));
    renameSync(partial, record);
  });
  return outDir;
}
