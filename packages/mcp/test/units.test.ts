// The server's parts on their own: schemas made standalone, names, the text rendering, the sums of the prompt, the
// docs' index, the masking of the token, and arguments that try to reach a prototype.
import assert from 'node:assert/strict';
import type { OpenApiDocument } from '@aggregation/openapi/contract';
import { describe, it } from 'vitest';
import { parseLlmsTxt } from '../src/docs-index.ts';
import { AggregationMcp, inlineSchema, snakeCase } from '../src/index.ts';
import { formatCents, sumByCategory, toCents } from '../src/prompts.ts';
import { REDACTED, redactor } from '../src/redact.ts';
import { inlineValue, renderList } from '../src/render.ts';

const document = (schemas: Record<string, unknown>) =>
  ({ openapi: '3.1.0', info: { version: 'x' }, components: { schemas } }) as unknown as OpenApiDocument;

describe('inlineSchema', () => {
  it('replaces every reference by its target, an annotation beside it winning over the target’s', () => {
    const doc = document({
      Money: { type: 'string', description: 'An amount', pattern: '^-?\\d+\\.\\d{2}$' },
      Balance: { type: 'object', properties: { ledger: { $ref: '#/components/schemas/Money', description: 'Total funds' }, enum: { type: 'string' } } },
    });
    assert.deepEqual(inlineSchema(doc, { $ref: '#/components/schemas/Balance' }, '#'), {
      type: 'object',
      properties: { ledger: { type: 'string', description: 'Total funds', pattern: '^-?\\d+\\.\\d{2}$' }, enum: { type: 'string' } },
    });
  });

  it('leaves data alone: a $ref inside an example or an enum is not followed', () => {
    const doc = document({});
    const schema = { type: 'object', examples: [{ $ref: '#/nowhere' }], const: { $ref: '#/nowhere' } };
    assert.deepEqual(inlineSchema(doc, schema, '#'), schema);
  });

  it('refuses what an inlined schema cannot say: a cycle, or a constraint beside a reference', () => {
    const cyclic = document({ Node: { type: 'object', properties: { next: { $ref: '#/components/schemas/Node' } } } });
    assert.throws(() => inlineSchema(cyclic, { $ref: '#/components/schemas/Node' }, '#'), /refers to itself/);
    const constrained = document({ Name: { type: 'string' } });
    assert.throws(() => inlineSchema(constrained, { $ref: '#/components/schemas/Name', maxLength: 3 }, '#/x'), /maxLength beside \$ref/);
  });
});

describe('snakeCase', () => {
  it('names a tool after its operationId, and a header argument after its header', () => {
    assert.equal(snakeCase('listAccounts'), 'list_accounts');
    assert.equal(snakeCase('getAccountDetails'), 'get_account_details');
    assert.equal(snakeCase('Idempotency-Key'), 'idempotency_key');
  });
});

describe('the text rendering', () => {
  it('shows every field but the links’ URLs, one line per item, and how to read on', () => {
    const text = renderList('List transactions', {
      data: [{ id: 'txn_1', amount: '-1.00', memo: '', details: { category: null }, links: { self: 'http://x/1', account: 'http://x' } }],
      next_from_id: 'txn_1',
    });
    assert.equal(
      text,
      'List transactions: 1 item.\n- {id: txn_1, amount: -1.00, memo: "", details: {category: null}, links: [self, account]}\nMore: call again with from_id txn_1.',
    );
    assert.equal(inlineValue(['a', 2, true]), '[a, 2, true]');
    assert.match(renderList('List accounts', { data: [] }), /^List accounts: 0 items\.$/);
    assert.match(renderList('List transactions', { data: [], next_from_id: null }), /This is the last page\.$/);
  });
});

describe('the sums of summarize_spending', () => {
  it('add amounts in cents, exactly', () => {
    assert.equal(toCents('-12.5'), -1250n);
    assert.equal(toCents('0.07'), 7n);
    assert.equal(formatCents(-1250n), '-12.50');
    assert.equal(formatCents(5n), '0.05');
    assert.throws(() => toCents('1e3'), /not an amount/);
    // 0.1 + 0.2 added ten times: floating point would not land on 3.00.
    const many = Array.from({ length: 10 }, () => [{ amount: '-0.10' }, { amount: '-0.20' }]).flat();
    assert.equal(formatCents(sumByCategory(many, false).byCategory.get('uncategorized')!.spent), '3.00');
  });

  it('count money out as spent: negative on a deposit account, positive on a card', () => {
    const transactions = [
      { amount: '-20.00', details: { category: 'dining' } },
      { amount: '100.00', details: { category: 'income' } },
      { amount: '5.00', status: 'pending', details: { category: 'dining' } },
    ];
    const deposit = sumByCategory(transactions, false);
    assert.deepEqual(deposit.byCategory.get('dining'), { spent: 2000n, received: 500n, count: 2 });
    assert.equal(deposit.pending, 1);
    const card = sumByCategory(transactions, true);
    assert.deepEqual(card.byCategory.get('dining'), { spent: 500n, received: 2000n, count: 2 });
    assert.deepEqual(card.byCategory.get('income'), { spent: 10000n, received: 0n, count: 1 });
  });
});

describe('parseLlmsTxt', () => {
  it('lists the Markdown pages an llms.txt links, with their sections, and nothing outside the docs', () => {
    const pages = parseLlmsTxt(
      [
        '# API',
        '## Guides',
        '- [Errors](guides/errors.md): Every error code',
        '## Optional',
        '- [OpenAPI](openapi/2020-10-12.json): the description',
        '- [Away](https://example.com/x.md): elsewhere',
        '- [Up](../secret.md): above',
        '- [Root](/etc/passwd.md): rooted',
      ].join('\n'),
    );
    assert.deepEqual(pages, [{ path: 'guides/errors.md', title: 'Errors', summary: 'Every error code', section: 'Guides' }]);
  });
});

describe('the token', () => {
  it('is masked in any text, also as the Basic credentials that carry it', () => {
    const redact = redactor('test_token_abc');
    assert.equal(redact('no account test_token_abc here'), `no account ${REDACTED} here`);
    assert.equal(redact(`Authorization: Basic ${btoa('test_token_abc:')}`), `Authorization: Basic ${REDACTED}`);
    assert.equal(redactor(undefined)('test_token_abc'), 'test_token_abc');
  });
});

describe('arguments that try to reach a prototype', () => {
  it('are refused before anything is sent, and Object.prototype stays as it was', async () => {
    const mcp = new AggregationMcp({ log: () => {} });
    const withPrototype = Object.setPrototypeOf({ account_id: 'acc_1' }, { polluted: true });
    const refused = await mcp.call('get_account', withPrototype);
    assert.equal(refused.isError, true);
    assert.match((refused.content[0] as { text: string }).text, /__proto__ is no argument/);
    const parsed = await mcp.call('get_account', JSON.parse('{"account_id": "acc_1", "__proto__": {"polluted": true}}'));
    assert.match((parsed.content[0] as { text: string }).text, /must NOT have additional properties \(__proto__\)/);
    assert.equal(({} as { polluted?: boolean }).polluted, undefined);
  });
});
