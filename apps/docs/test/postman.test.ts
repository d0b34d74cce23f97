// The Postman collection of each document, as the build writes it: every operation once with a test script, the
// requests every other one needs first, the ones that end the data last, and the version pinned.
import assert from 'node:assert/strict';
import { documentNames, loadBundle, operationsOf, versions } from '@aggregation/openapi/contract';
import { describe, it } from 'vitest';
import { buildCollection } from '../src/postman.ts';

type Item = { name: string; item?: Item[]; request?: { header?: { key: string; value: string }[] }; event?: { script: { exec: string[] } }[] };
const requests = (items: Item[]): Item[] => items.flatMap((item) => (item.item ? requests(item.item) : [item]));

describe('Postman collections', () => {
  for (const document of documentNames) {
    it(`${document}: every operation once, each with a test script checking the description`, async () => {
      const collection = await buildCollection(loadBundle(document), document);
      const all = requests(collection.item as Item[]);
      assert.equal(all.length, operationsOf(loadBundle(document)).length);
      for (const request of all) {
        const script = request.event?.[0]?.script.exec.join('\n') ?? '';
        assert.match(script, /answers a documented success status/, request.name);
      }
      if ((versions as readonly string[]).includes(document)) {
        for (const request of all) {
          const pinned = request.request?.header?.find((header) => header.key === 'Service-Version');
          if (pinned) assert.equal(pinned.value, document, request.name);
        }
      }
    });
  }

  it('the sandbox collection makes an application, then enrolls with it, before anything else; ends the data last', async () => {
    const collection = await buildCollection(loadBundle('sandbox'), 'sandbox');
    const [first, ...rest] = collection.item as Item[];
    const scripts = (item: Item) => item.event?.[0]?.script.exec.join('\n') ?? '';
    assert.match(scripts(first!.item![0]!), /createSandboxApplication/);
    assert.match(scripts(first!.item![1]!), /createSandboxEnrollment/);
    const last = rest.at(-1)!;
    assert.match(last.name, /Run last/);
    assert.deepEqual(
      requests(last.item!).map((item) => /(\w+): checked against/.exec(scripts(item))?.[1]),
      ['closeSandboxAccount', 'disconnectSandboxEnrollment', 'reconnectSandboxEnrollment'],
    );
  });
});
