// `npm run build`: a Postman collection and environment per document, in dist/:
//   dist/<document>.postman_collection.json
//   dist/<document>.postman_environment.json
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { documentNames, loadBundle } from '@aggregation/openapi/contract';
import { buildCollection, buildEnvironment } from './collection.ts';
import { distDir } from './paths.ts';

await mkdir(distDir, { recursive: true });
for (const document of documentNames) {
  const collection = await buildCollection(loadBundle(document), document);
  await writeFile(join(distDir, `${document}.postman_collection.json`), `${JSON.stringify(collection, null, 2)}\n`);
  await writeFile(join(distDir, `${document}.postman_environment.json`), `${JSON.stringify(buildEnvironment(document), null, 2)}\n`);
}
console.log(`Postman collections written to ${distDir}: ${documentNames.join(', ')}`);
