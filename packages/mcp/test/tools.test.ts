// The tools against the description: one per operation of each version, named by its operationId in snake_case, with
// the schemas the description gives (worked out by test/helpers/expected.ts with a third-party dereferencer), hints
// from the HTTP method, and schemas that validators read and that the description's own examples satisfy.
import assert from 'node:assert/strict';
import { VERSIONS, type Version } from '@aggregation/openapi/versions';
import { Ajv as AjvDraft07 } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, it } from 'vitest';
import { AggregationMcp } from '../src/index.ts';
import { expectedTools, schemaDifferences } from './helpers/expected.ts';

/** A JSON Schema 2020-12 validator, MCP's default dialect, checking the schemas themselves against the meta-schema. */
function validator2020() {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true, logger: false });
  (addFormats as unknown as (ajv: Ajv2020) => void)(ajv);
  return ajv;
}

const toolsOf = (version: Version, allowWrites: boolean) => new AggregationMcp({ version, allowWrites, log: () => {} }).listTools();

/** The served tool without what the server adds to the description's schema (next_from_id's description). */
function comparableOutput(schema: Record<string, any> | undefined) {
  if (!schema?.properties?.next_from_id) return schema;
  const copy = structuredClone(schema);
  assert.match(copy.properties.next_from_id.description, /from_id/);
  delete copy.properties.next_from_id.description;
  return copy;
}

function hasRef(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasRef);
  if (value && typeof value === 'object') return '$ref' in value || Object.values(value).some(hasRef);
  return false;
}

describe.each(VERSIONS)('the tools of %s', (version) => {
  it('are one per operation of the description, named by its operationId in snake_case', async () => {
    const expected = await expectedTools(version);
    const served = toolsOf(version, true);
    assert.deepEqual(
      served.map((tool) => tool.name),
      expected.map((tool) => tool.name),
    );
    assert.ok(served.some((tool) => tool.name === 'list_accounts') && served.some((tool) => tool.name === 'create_payment'));
  });

  it('are only the reading ones without --allow-writes', async () => {
    const expected = await expectedTools(version);
    const reading = expected.filter((tool) => ['get', 'head', 'options'].includes(tool.method)).map((tool) => tool.name);
    assert.deepEqual(
      toolsOf(version, false).map((tool) => tool.name),
      reading,
    );
    assert.ok(!reading.includes('create_payment') && !reading.includes('delete_account'));
  });

  it("have the description's schemas: inputs from the parameters and the body, outputs from the success answer", async () => {
    const expected = new Map((await expectedTools(version)).map((tool) => [tool.name, tool]));
    for (const tool of toolsOf(version, true)) {
      const want = expected.get(tool.name)!;
      assert.deepEqual(schemaDifferences(tool.inputSchema, want.inputSchema), [], `${tool.name}: inputSchema`);
      assert.deepEqual(schemaDifferences(comparableOutput(tool.outputSchema), want.outputSchema), [], `${tool.name}: outputSchema`);
      assert.equal(hasRef(tool.inputSchema) || hasRef(tool.outputSchema), false, `${tool.name}: a $ref left in a schema`);
    }
  });

  it('take an idempotency_key, required, where the operation declares Idempotency-Key', async () => {
    for (const want of await expectedTools(version)) {
      const tool = toolsOf(version, true).find((candidate) => candidate.name === want.name)!;
      const required = (tool.inputSchema.required as string[] | undefined) ?? [];
      assert.equal(required.includes('idempotency_key'), want.keyed, tool.name);
    }
    const keyed = (await expectedTools(version)).filter((tool) => tool.keyed).map((tool) => tool.name);
    assert.deepEqual(keyed.sort(), ['create_payee', 'create_payment']);
  });

  it('carry hints from the HTTP method: reads read, removals destroy, keyed creations are idempotent', async () => {
    for (const want of await expectedTools(version)) {
      const { annotations } = toolsOf(version, true).find((tool) => tool.name === want.name)!;
      const reads = ['get', 'head', 'options'].includes(want.method);
      assert.equal(annotations?.readOnlyHint, reads, want.name);
      assert.equal(annotations?.destructiveHint, want.method === 'delete', want.name);
      assert.equal(annotations?.idempotentHint, reads || want.method === 'delete' || want.keyed, want.name);
      assert.equal(annotations?.title, want.summary, want.name);
    }
  });

  it("are described by the operation's summary and description", async () => {
    for (const want of await expectedTools(version)) {
      const tool = toolsOf(version, true).find((candidate) => candidate.name === want.name)!;
      assert.ok(tool.description?.startsWith(`${want.summary}.`), tool.name);
      assert.ok(tool.description?.includes(want.description.trim()), tool.name);
      assert.equal(tool.title, want.summary);
    }
  });

  it('have schemas that JSON Schema 2020-12 and draft-07 validators compile, with an object at the top', () => {
    const strict = validator2020();
    const draft07 = new AjvDraft07({ strict: false, logger: false });
    for (const tool of toolsOf(version, true)) {
      for (const schema of [tool.inputSchema, tool.outputSchema]) {
        if (!schema) continue;
        assert.equal(schema.type, 'object', tool.name);
        assert.ok(strict.validateSchema(schema), `${tool.name}: ${strict.errorsText()}`);
        strict.compile(schema);
        draft07.compile(schema);
      }
    }
  });

  it("accept the description's examples: request bodies and parameters in, success answers out", async () => {
    const ajv = validator2020();
    let checked = 0;
    for (const want of await expectedTools(version)) {
      const tool = toolsOf(version, true).find((candidate) => candidate.name === want.name)!;
      const args: Record<string, unknown> = {};
      for (const input of want.inputs.filter((i) => i.in !== 'body')) {
        const parameter = [...(want.operation.parameters ?? [])].find((p: any) => p.name === input.name) ?? undefined;
        const example = parameter?.schema?.examples?.[0] ?? (input.argument.endsWith('_id') ? 'acc_1' : 'x');
        args[input.argument] = example;
      }
      const bodies = Object.values(want.operation.requestBody?.content?.['application/json']?.examples ?? { none: { value: {} } }) as {
        value: object;
      }[];
      for (const body of bodies) {
        const validate = ajv.compile(tool.inputSchema);
        assert.ok(validate({ ...args, ...body.value }), `${tool.name} refuses an example: ${ajv.errorsText(validate.errors)}`);
        checked += 1;
      }
      for (const [status, response] of Object.entries(want.operation.responses as Record<string, any>)) {
        const media = response.content?.['application/json'];
        if (!/^2/.test(status) || !media) continue;
        const validate = ajv.compile(tool.outputSchema!);
        for (const { value } of Object.values(media.examples ?? {}) as { value: unknown }[]) {
          const structured = want.answer === 'page' ? { data: value, next_from_id: null } : want.answer === 'list' ? { data: value } : value;
          assert.ok(validate(structured), `${tool.name} ${status}: an example answer does not validate: ${ajv.errorsText(validate.errors)}`);
          checked += 1;
        }
      }
    }
    assert.ok(checked > 20, `${checked} examples checked`);
  });
});

describe('the comparison with the description', () => {
  it('fails on a tool whose schema was changed, so the tests above can fail', async () => {
    const [tool] = toolsOf('2020-10-12', true).filter((candidate) => candidate.name === 'create_payment');
    const want = (await expectedTools('2020-10-12')).find((candidate) => candidate.name === 'create_payment')!;
    const tampered = structuredClone(tool!.inputSchema) as any;
    tampered.properties.memo.maxLength = 1000;
    delete tampered.properties.payee.properties.type;
    tampered.required = tampered.required.filter((name: string) => name !== 'idempotency_key');
    assert.deepEqual(schemaDifferences(tampered, want.inputSchema).sort(), [
      '/properties/memo/maxLength: 1000 instead of 250',
      '/properties/payee/properties/type: missing',
      '/required: 4 items instead of 5',
    ]);
  });
});
