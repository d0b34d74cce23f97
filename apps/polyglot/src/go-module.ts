// The Go module aggregation.example/client as released: the generated client (clients/go) with the hand-written
// layer of go/ (token authentication, typed errors, retries, webhook verification and their tests, README), the
// POSTs that take an Idempotency-Key (idempotency.gen.go, from the description) and the shared webhook vectors as
// its testdata, assembled into a folder that `go vet` and `go test` must pass.
import { cpSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { idempotentPosts } from './idempotency.ts';
import { goClientDir, packageDir, repoRoot } from './paths.ts';
import { webhookVectorsPath } from './python-package.ts';
import { run } from './run.ts';

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
  return outDir;
}

/** Writes the module into `outDir` (run generateGoClient first), completes its go.sum, then vets and tests it. */
export async function buildGoModule(go: string, outDir: string): Promise<string> {
  assembleGoModule(outDir);
  await run(go, ['mod', 'tidy'], { cwd: outDir });
  await run(go, ['vet', './...'], { cwd: outDir });
  await run(go, ['test', './...'], { cwd: outDir });
  return outDir;
}
