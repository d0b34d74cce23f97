// The Go module aggregation.example/client as released: the generated client (clients/go) with the hand-written
// layer of go/ (token authentication, webhook verification and their tests, README) and the shared webhook vectors
// as its testdata, assembled into a folder that `go vet` and `go test` must pass.
import { cpSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { goClientDir, packageDir, repoRoot } from './paths.ts';
import { webhookVectorsPath } from './python-package.ts';
import { run } from './run.ts';

export const goLayerDir = join(packageDir, 'go');

/** Writes the module's files into `outDir` (run generateGoClient first): the generated client and the layer. */
export function assembleGoModule(outDir: string): string {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(join(outDir, 'testdata'), { recursive: true });
  for (const file of ['client.gen.go', 'go.mod']) cpSync(join(goClientDir, file), join(outDir, file));
  for (const file of readdirSync(goLayerDir)) cpSync(join(goLayerDir, file), join(outDir, file));
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
