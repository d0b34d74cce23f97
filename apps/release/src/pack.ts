// `npm run release:pack`: every artifact an integrator installs, packed into dist/release/ and checked the way a
// registry's users would meet it. The npm packages are the workspaces that are not private: turbo has built each
// (`^build`), `npm pack` packs it (with the repository's LICENSE beside its README), then publint and
// @arethetypeswrong/cli lint its tarball. Any problem either reports fails the run. The Python package
// aggregation-client is built as a wheel and an sdist into dist/release/python/ and checked by `twine check`; the Go
// module aggregation.example/client is written as a folder into dist/release/go/ and checked by `go vet` and `go test`.
import { execFile } from 'node:child_process';
import { copyFile, mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { buildGoModule, buildPythonPackage, clientsDir, ensureVenv, findToolchain, generateGoClient, generatePythonClient, missingTool } from '@aggregation/polyglot';
import { skipWhenMissing } from '@aggregation/test-support';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { goReleaseDir, publishedPackages, pythonReleaseDir, releaseDir, repoRoot } from './packages.ts';

const run = promisify(execFile);
const bin = (name: string) => join(repoRoot, 'node_modules', '.bin', name);

async function packOne(dir: string): Promise<string> {
  const license = join(dir, 'LICENSE');
  await copyFile(join(repoRoot, 'LICENSE'), license);
  try {
    const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', releaseDir], { cwd: dir });
    const [packed] = JSON.parse(stdout) as { filename: string }[];
    if (!packed) throw new Error(`npm pack printed no tarball for ${dir}`);
    return join(releaseDir, packed.filename);
  } finally {
    await rm(license, { force: true });
  }
}

async function lintOne(tarball: string): Promise<string[]> {
  const problems: string[] = [];
  const { messages, pkg } = await publint({ pack: { tarball: (await readFile(tarball)).buffer as ArrayBuffer }, strict: true, level: 'suggestion' });
  for (const message of messages) problems.push(`publint ${message.type}: ${formatMessage(message, pkg) ?? message.code}`);
  // ESM only by design: `require()` of it works where Node.js loads ES modules synchronously (20.19, 22.12 and newer),
  // so attw's profile for ESM-only packages, which still checks every ESM and bundler resolution.
  try {
    await run(bin('attw'), [tarball, '--profile', 'esm-only', '--format', 'ascii', '--no-color']);
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    problems.push(`attw:\n${stdout}${stderr}`);
  }
  return problems;
}

await rm(releaseDir, { recursive: true, force: true });
await mkdir(releaseDir, { recursive: true });
const packages = await publishedPackages();

let failed = 0;
for (const entry of packages) {
  const tarball = await packOne(entry.dir);
  const problems = await lintOne(tarball);
  console.log(`${problems.length ? '✗' : '✓'} ${entry.name}@${entry.version}: ${tarball.slice(repoRoot.length + 1)}`);
  for (const problem of problems) console.log(`    ${problem.replaceAll('\n', '\n    ')}`);
  if (problems.length) failed++;
}
const toolchain = findToolchain();
if (!skipWhenMissing('the Python package', missingTool('python', toolchain))) {
  await ensureVenv(toolchain.python!);
  await generatePythonClient();
  // Assembled apart from the polyglot tests' copy, which they may be assembling at the same time.
  const artifacts = await buildPythonPackage(pythonReleaseDir, join(clientsDir, 'python-package-release'));
  console.log(`✓ aggregation-client (Python): ${artifacts.map((file) => file.slice(repoRoot.length + 1)).join(', ')}, twine check clean`);
}
if (!skipWhenMissing('the Go module', missingTool('go', toolchain))) {
  await generateGoClient(toolchain.go!);
  await buildGoModule(toolchain.go!, goReleaseDir);
  console.log(`✓ aggregation.example/client (Go): ${goReleaseDir.slice(repoRoot.length + 1)}/, go vet and go test clean`);
}

if (failed) {
  console.error(`${failed} of ${packages.length} packages have problems`);
  process.exit(1);
}
console.log(`${packages.length} npm packages in ${releaseDir.slice(repoRoot.length + 1)}, publint and attw clean`);
