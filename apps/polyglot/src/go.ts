// The Go client: oapi-codegen, pinned as a tool of tools/go.mod, generates package `aggregation` into clients/go,
// a module (aggregation.example/client) that the smoke program uses through a replace directive.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundlePath, goClientDir, packageDir } from './paths.ts';
import { run } from './run.ts';
import { hashFiles, isUpToDateOrKept, markUpToDateAndKeep } from './stamp.ts';

export const goClientModule = 'aggregation.example/client';
const toolsDir = join(packageDir, 'tools');
const configFile = join(packageDir, 'oapi-codegen.yaml');
export const goSmokeDir = join(packageDir, 'smoke', 'go');

/** The oapi-codegen runtime version the smoke module pins; the generated module requires the same. */
function runtimeVersion(): string {
  const goMod = readFileSync(join(goSmokeDir, 'go.mod'), 'utf8');
  const match = /github\.com\/oapi-codegen\/runtime (v\S+)/.exec(goMod);
  if (!match) throw new Error(`${goSmokeDir}/go.mod does not require github.com/oapi-codegen/runtime`);
  return match[1]!;
}

export async function generateGoClient(go: string): Promise<'generated' | 'up to date'> {
  const inputs = [bundlePath, configFile, join(toolsDir, 'go.mod'), join(toolsDir, 'go.sum'), join(goSmokeDir, 'go.mod')];
  const hash = hashFiles(inputs);
  if (isUpToDateOrKept(goClientDir, hash)) return 'up to date';
  rmSync(goClientDir, { recursive: true, force: true });
  mkdirSync(goClientDir, { recursive: true });
  await run(go, ['tool', 'oapi-codegen', '-config', configFile, '-o', join(goClientDir, 'client.gen.go'), bundlePath], { cwd: toolsDir });
  writeFileSync(join(goClientDir, 'go.mod'), `module ${goClientModule}\n\ngo 1.25\n\nrequire github.com/oapi-codegen/runtime ${runtimeVersion()}\n`);
  markUpToDateAndKeep(goClientDir, hash);
  return 'generated';
}
