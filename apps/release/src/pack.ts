// `npm run release:pack`: every artifact an integrator installs, packed into dist/release/ and checked the way a
// registry's users would meet it. The npm packages are the workspaces that are not private: turbo has built each
// (`^build`), one `npm pack` packs them all (with the repository's LICENSE beside each README), then publint and
// @arethetypeswrong/cli's checks (all in one process) lint each tarball. Any problem either reports fails
// the run. The Python package aggregation-client is built as a wheel and an sdist into dist/release/python/ and checked
// by `twine check`; the Go module aggregation.example/client is written as a folder into dist/release/go/ and checked
// by `go vet` and `go test`.
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import {
  buildGoModule,
  buildPythonPackage,
  clientsDir,
  ensureVenv,
  findToolchain,
  generateGoClient,
  generatePythonClient,
  missingTool,
} from '@aggregation/polyglot';
import { skipWhenMissing } from '@aggregation/test-support';
import { lintTarballs, packPackages } from './npm-pack.ts';
import { goReleaseDir, publishedPackages, pythonReleaseDir, releaseDir, repoRoot } from './packages.ts';

await rm(releaseDir, { recursive: true, force: true });
await mkdir(releaseDir, { recursive: true });
const packages = await publishedPackages();
const toolchain = findToolchain();

/** Packs and lints the npm packages; resolves to how many have problems. */
async function packNpmPackages(): Promise<number> {
  let failed = 0;
  const packed = await packPackages(
    packages.map((entry) => entry.dir),
    releaseDir,
  );
  const lint = await lintTarballs(packed.map((entry) => entry.tarball));
  for (const [index, { name, version, tarball }] of packed.entries()) {
    const problems = lint[index]!;
    console.log(`${problems.length ? '✗' : '✓'} ${name}@${version}: ${tarball.slice(repoRoot.length + 1)}`);
    for (const problem of problems) console.log(`    ${problem.replaceAll('\n', '\n    ')}`);
    if (problems.length) failed++;
  }
  return failed;
}

async function packPython(): Promise<void> {
  if (skipWhenMissing('the Python package', missingTool('python', toolchain))) return;
  await ensureVenv(toolchain.python!);
  await generatePythonClient();
  // Assembled apart from the polyglot tests' copy, which they may be assembling at the same time.
  const artifacts = await buildPythonPackage(pythonReleaseDir, join(clientsDir, 'python-package-release'));
  console.log(`✓ aggregation-client (Python): ${artifacts.map((file) => file.slice(repoRoot.length + 1)).join(', ')}, twine check clean`);
}

async function packGo(): Promise<void> {
  if (skipWhenMissing('the Go module', missingTool('go', toolchain))) return;
  await generateGoClient(toolchain.go!);
  await buildGoModule(toolchain.go!, goReleaseDir);
  console.log(`✓ aggregation.example/client (Go): ${goReleaseDir.slice(repoRoot.length + 1)}/, go vet and go test clean`);
}

// Independent of each other, so packed at once: on a busy machine (all of `npm test`), what runs in parallel gets the
// larger share of the cores.
const [failed] = await Promise.all([packNpmPackages(), packPython(), packGo()]);
if (failed) {
  console.error(`${failed} of ${packages.length} packages have problems`);
  process.exit(1);
}
console.log(`${packages.length} npm packages in ${releaseDir.slice(repoRoot.length + 1)}, publint and attw clean`);
