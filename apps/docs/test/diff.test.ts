import assert from 'node:assert/strict';
import { loadBundle, type OpenApiDocument } from '@aggregation/openapi/contract';
import { describe, it } from 'vitest';
import { diffDocuments, typeLabel } from '../src/diff.ts';

function doc(version: string, parts: Partial<OpenApiDocument>): OpenApiDocument {
  return { openapi: '3.1.0', info: { title: 'T', version }, paths: {}, ...parts } as OpenApiDocument;
}

const ok = (schema: unknown) => ({ description: 'ok', content: { 'application/json': { schema } } });

describe('typeLabel', () => {
  it('names references, arrays, unions, enums and formats', () => {
    assert.equal(typeLabel({ $ref: '#/components/schemas/Account' }), 'Account');
    assert.equal(typeLabel({ type: 'array', items: { $ref: '#/components/schemas/Account' } }), 'Account[]');
    assert.equal(typeLabel({ type: ['string', 'null'] }), 'string | null');
    assert.equal(typeLabel({ type: 'string', enum: ['ach', 'wire'] }), '"ach" | "wire"');
    assert.equal(typeLabel({ type: 'string', format: 'date' }), 'string<date>');
    assert.equal(typeLabel({ anyOf: [{ $ref: '#/x/Money' }, { type: 'null' }] }), 'Money | null');
  });
});

describe('diffDocuments on small documents', () => {
  const from = doc('1', {
    paths: {
      '/things': { get: { operationId: 'listThings', responses: { '200': ok({ $ref: '#/components/schemas/Thing' }) } } },
      '/gone': { delete: { operationId: 'removeGone', responses: { '204': { description: 'gone' } } } },
    },
    components: {
      schemas: {
        Thing: { type: 'object', required: ['id'], properties: { id: { type: 'string' }, name: { type: 'string' }, old: { type: 'integer' } } },
        Old: { type: 'string' },
      },
      securitySchemes: { basic: { type: 'http', scheme: 'basic' }, key: { type: 'apiKey', in: 'header', name: 'X' } },
    },
  });
  const to = doc('2', {
    paths: {
      '/things': {
        get: {
          operationId: 'listThings',
          parameters: [{ name: 'count', in: 'query', schema: { type: 'integer' } }],
          responses: { '200': ok({ $ref: '#/components/schemas/Thing' }), '404': { description: 'none' } },
        },
      },
      '/new': { post: { operationId: 'createNew', responses: { '201': { description: 'made' } } } },
    },
    components: {
      schemas: {
        Thing: {
          type: 'object',
          required: ['id', 'name'],
          description: 'prose changes do not count',
          properties: { id: { type: 'string' }, name: { type: ['string', 'null'] }, added: { $ref: '#/components/schemas/New' } },
        },
        New: { type: 'string' },
      },
      securitySchemes: { basic: { type: 'http', scheme: 'bearer' } },
    },
  });
  const changes = diffDocuments(from, to);

  it('lists added, removed and changed schemas and properties', () => {
    assert.deepEqual(changes.schemas.added, ['New']);
    assert.deepEqual(changes.schemas.removed, ['Old']);
    const thing = changes.schemas.changed.find((schema) => schema.name === 'Thing');
    assert.ok(thing);
    assert.deepEqual(thing.properties.added, [{ name: 'added', type: 'New' }]);
    assert.deepEqual(thing.properties.removed, [{ name: 'old', type: 'integer' }]);
    assert.deepEqual(thing.properties.changed, [{ name: 'name', from: 'string', to: 'string | null' }]);
    assert.deepEqual(thing.required, { added: ['name'], removed: [] });
  });

  it('lists operations added, removed and changed, with their parameters and responses', () => {
    assert.deepEqual(changes.operations.added, [{ method: 'post', path: '/new', operationId: 'createNew' }]);
    assert.deepEqual(changes.operations.removed, [{ method: 'delete', path: '/gone', operationId: 'removeGone' }]);
    const [list] = changes.operations.changed;
    assert.equal(list?.operationId, 'listThings');
    assert.deepEqual(list?.parameters.added, ['query count']);
    assert.deepEqual(list?.responses.added, ['404']);
    assert.deepEqual(
      list?.responses.changed.map((change) => [change.name, change.via]),
      [['200', ['Thing']]],
    );
  });

  it('lists security schemes added, removed and changed', () => {
    assert.deepEqual(changes.securitySchemes.removed, ['key']);
    assert.deepEqual(changes.securitySchemes.changed, [{ name: 'basic', from: 'http basic', to: 'http bearer' }]);
  });

  it('finds nothing between a document and itself', () => {
    const same = diffDocuments(to, to);
    assert.equal(same.schemas.changed.length + same.operations.changed.length + same.webhooks.changed.length, 0);
    assert.equal(same.security, undefined);
  });
});

describe('diffDocuments from 2019-07-01 to 2020-10-12', () => {
  const changes = diffDocuments(loadBundle('2019-07-01'), loadBundle('2020-10-12'));
  const schema = (name: string) => changes.schemas.changed.find((item) => item.name === name);

  it('sees the account institution become an object and the older account fields go', () => {
    assert.deepEqual(
      schema('Account')?.properties.changed.find((change) => change.name === 'institution'),
      {
        name: 'institution',
        from: 'string',
        to: 'AccountInstitution',
      },
    );
    const removed = schema('Account')?.properties.removed.map((property) => property.name);
    assert.ok(removed?.includes('currency_code') && removed.includes('routing_numbers'));
  });

  it('sees balances change from an array to an object', () => {
    assert.equal(schema('AccountBalances')?.type?.to, 'object');
    assert.match(schema('AccountBalances')?.type?.from ?? '', /\[\]$/);
  });

  it('sees transactions gain details and status, and lose their top-level counterparty', () => {
    const transaction = schema('Transaction');
    assert.ok(transaction?.properties.added.some((property) => property.name === 'details'));
    assert.ok(transaction?.properties.added.some((property) => property.name === 'status'));
    assert.ok(transaction?.properties.removed.some((property) => property.name === 'counterparty'));
  });

  it('sees the raw-token security scheme removed', () => {
    assert.deepEqual(changes.securitySchemes.removed, ['rawToken']);
  });

  it('sees the responses that changed shape and the webhook payload that did', () => {
    const changed = changes.operations.changed.map((operation) => operation.operationId);
    for (const id of ['listAccounts', 'getAccount', 'getAccountBalances', 'listTransactions', 'getTransaction', 'listPaymentSchemes']) {
      assert.ok(changed.includes(id), id);
    }
    assert.ok(!changed.includes('listInstitutions'));
    assert.deepEqual(
      changes.webhooks.changed.map((hook) => hook.name),
      ['transactions.processed'],
    );
  });
});
