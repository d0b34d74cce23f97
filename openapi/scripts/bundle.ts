// Bundles each API of redocly.yaml into dist/<name>.json and dist/<name>.yaml.
// Components stay named (no dereferencing) so that generators see the same names.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parse } from 'yaml';

const run = promisify(execFile);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');

// Workspaces hoist the binary to the repository's node_modules: look upwards for it.
function findBin(name: string): string {
  for (let dir = root; ; dir = dirname(dir)) {
    const bin = join(dir, 'node_modules', '.bin', name);
    if (existsSync(bin)) return bin;
    if (dirname(dir) === dir) throw new Error(`${name} not found in node_modules/.bin`);
  }
}

const redocly = findBin('redocly');
const config = parse(await readFile(join(root, 'redocly.yaml'), 'utf8')) as { apis: Record<string, unknown> };

for (const name of Object.keys(config.apis)) {
  for (const ext of ['json', 'yaml']) {
    const { stderr } = await run(redocly, ['bundle', name, '--output', `dist/${name}.${ext}`], { cwd: root });
    process.stderr.write(stderr);
  }
}
