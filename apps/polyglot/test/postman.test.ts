// The docs' Postman collections (apps/docs/dist/postman/), run by Newman against the sandbox server as a user would
// run them: the sandbox collection makes the enrollment (and fills the environment in), then each version's
// collection runs every request with its test script.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Collection, docsDir, type Environment } from '@aggregation/docs';
import { type DocumentName, loadBundle, operationsOf, versions } from '@aggregation/openapi/contract';
import { startServer } from '@aggregation/server';
import newman, { type NewmanRunOptions, type NewmanRunSummary } from 'newman';
import { afterAll, beforeAll, describe, test } from 'vitest';

type Run = { summary: NewmanRunSummary; environment: Environment };

function run(options: NewmanRunOptions): Promise<Run> {
  return new Promise((resolve, reject) => {
    newman.run({ reporters: [], ...options }, (error, summary) => {
      if (error) reject(error);
      else resolve({ summary, environment: summary.environment.toJSON() as unknown as Environment });
    });
  });
}

/** Each failed assertion or request as one readable line. */
function failures(summary: NewmanRunSummary): string[] {
  return summary.run.failures.map((failure) => `${failure.source?.name ?? '?'}: ${failure.error.test ?? ''} ${failure.error.message}`);
}

let server: { url: string; close(): Promise<void> };
const download = <T>(file: string): T => JSON.parse(readFileSync(join(docsDir, 'postman', file), 'utf8')) as T;
const environmentFor = (document: DocumentName): Environment => {
  const environment = download<Environment>(`${document}.postman_environment.json`);
  environment.values.find((value) => value.key === 'baseUrl')!.value = server.url;
  return environment;
};
const collectionOf = async (document: DocumentName) => download<Collection>(`${document}.postman_collection.json`);

/** A fresh enrollment made by the sandbox collection's first folder, as a user starts. */
async function enrolled(document: DocumentName): Promise<Environment> {
  const { summary, environment } = await run({ collection: await collectionOf('sandbox'), environment: environmentFor(document), folder: 'Sandbox' });
  assert.deepEqual(failures(summary), []);
  return environment;
}

beforeAll(async () => {
  // No webhook deliveries: the collection sets an example webhook URL, and nothing may leave this machine.
  server = await startServer({ port: 0, hostname: '127.0.0.1', webhooks: { autostart: false } });
});
afterAll(() => server.close());

describe('Newman', () => {
  for (const version of versions) {
    test(`the ${version} collection passes every test against the sandbox`, async () => {
      const environment = await enrolled(version);
      const token = environment.values.find((value) => value.key === 'accessToken')!.value;
      assert.match(token, /^test_token_/, 'the sandbox collection kept the access token');
      const { summary } = await run({ collection: await collectionOf(version), environment });
      assert.deepEqual(failures(summary), []);
      const operations = operationsOf(loadBundle(version)).length;
      assert.equal(summary.run.stats.requests.total, operations, 'one request per operation');
      // A documented status and the version served, for every request; a body check where there is a body.
      const assertions = summary.run.stats.assertions.total ?? 0;
      assert.ok(assertions >= 2 * operations, `${assertions} assertions`);
      console.log(`# ${version}: ${summary.run.stats.requests.total} requests, ${summary.run.stats.assertions.total} assertions passed`);
    });
  }

  test('the sandbox collection passes every test, the requests that end the data last', async () => {
    const { summary } = await run({ collection: await collectionOf('sandbox'), environment: environmentFor('sandbox') });
    assert.deepEqual(failures(summary), []);
    // One item per operation (the MFA challenges' scripts send requests of their own before theirs).
    assert.equal(summary.run.stats.items.total, operationsOf(loadBundle('sandbox')).length);
  });

  test('a request that fails the description fails its test', async () => {
    const environment = environmentFor(versions[0]);
    environment.values.find((value) => value.key === 'accessToken')!.value = 'test_token_unknown';
    const { summary } = await run({ collection: await collectionOf(versions[0]), environment, folder: 'Accounts' });
    const failed = failures(summary);
    assert.ok(failed.length > 0);
    assert.ok(
      failed.every((line) => /documented success status/.test(line)),
      failed.join('\n'),
    );
  });
});
