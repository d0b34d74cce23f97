// Bundles each API of redocly.yaml into dist/<name>.json and dist/<name>.yaml.
// Components stay named (no dereferencing) so that generators see the same names. Beside each bundle goes its
// variant for client generators, dist/<name>.generators.json and .yaml (see src/generators.ts), its OpenAPI 3.0.3 form,
// dist/<name>.openapi-3.0.json and .yaml (see scripts/openapi-3.0.ts), and last the module of
// the versions the bundles carry, dist/versions.js (see scripts/versions.ts).
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parse, stringify } from 'yaml';
import type { DocumentName, OpenApiDocument } from '../src/bundles.ts';
import { forGenerators, generatorsBundlePath, openApi30Path } from '../src/generators.ts';
import { toOpenApi30 } from './openapi-3.0.ts';
import { type Document, writeVersionsModule } from './versions.ts';

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

/** A derived document as `<path>.json` and `.yaml`. */
async function writeJsonAndYaml(path: (name: DocumentName, ext: 'json' | 'yaml') => string, name: DocumentName, document: OpenApiDocument) {
  await writeFile(path(name, 'json'), `${JSON.stringify(document, null, 2)}\n`);
  // Long lines stay whole, as in Redocly's YAML bundles; YAML 1.1 quotes dates (info.version), which 1.1 parsers would read as dates.
  await writeFile(path(name, 'yaml'), stringify(document, { lineWidth: 0, version: '1.1' }));
}

const documents: Document[] = [];
for (const name of Object.keys(config.apis) as DocumentName[]) {
  const bundle = JSON.parse(await readFile(join(root, 'dist', `${name}.json`), 'utf8')) as OpenApiDocument;
  documents.push({ name, infoVersion: bundle.info.version });
  await writeJsonAndYaml(generatorsBundlePath, name, forGenerators(bundle));
  await writeJsonAndYaml(openApi30Path, name, toOpenApi30(bundle));
}

await writeVersionsModule(join(root, 'dist'), documents);
