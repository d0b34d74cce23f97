// The house rules of .spectral.yaml: each one is run, through the real ruleset, on a small document that breaks it
// (it must fire with its code at the right path) and on a clean document (nothing may fire).
import assert from 'node:assert/strict';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ISpectralDiagnostic, Ruleset } from '@stoplight/spectral-core';
import { beforeAll, describe, test } from 'vitest';
import { lintText, loadRuleset } from '../scripts/spectral.ts';

const openapiDir = join(dirname(fileURLToPath(import.meta.url)), '..');
type Json = { [key: string]: any };

let ruleset: Ruleset;

beforeAll(async () => {
  ruleset = await loadRuleset(join(openapiDir, '.spectral.yaml'));
});

/**
 * Lints a document as if it were the file `source` (relative to openapi/), which decides the overrides that apply.
 */
async function lint(doc: Json, source = 'test/fixture.json'): Promise<ISpectralDiagnostic[]> {
  return lintText(ruleset, JSON.stringify(doc, null, 2), join(openapiDir, source));
}

const findings = (results: ISpectralDiagnostic[], code: string) =>
  results.filter((result) => result.code === code).map((result) => ({ path: result.path.join(' > '), message: result.message }));

/** Asserts that `code` fires at `path` (segments joined with " > "). */
async function assertFires(doc: Json, code: string, path: string[], source?: string) {
  const found = findings(await lint(doc, source), code);
  assert.ok(
    found.some((finding) => finding.path === path.join(' > ')),
    `${code} expected at ${path.join(' > ')}, found: ${JSON.stringify(found)}`,
  );
  return found;
}

const errorResponse = (code: string) => ({
  description: `Error ${code}.`,
  content: {
    'application/json': {
      schema: { $ref: '#/components/schemas/Error' },
      examples: { [code]: { summary: code, value: { error: { code, message: `A ${code} error.` } } } },
    },
  },
});

/** A small document that passes every rule of the ruleset. */
function cleanDocument(): Json {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Widgets',
      version: '1.0.0',
      description: 'Widgets and their prices.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: 'https://api.widgets.test', description: 'Production server.', 'x-internal': false }],
    security: [{ basicAuth: [] }],
    tags: [{ name: 'Widgets', description: 'Widgets.' }],
    paths: {
      '/widgets/{widget_id}': {
        parameters: [
          {
            name: 'widget_id',
            in: 'path',
            required: true,
            description: 'Widget identifier.',
            schema: { type: 'string', pattern: '^wid_[a-z0-9]+$', maxLength: 40 },
          },
        ],
        put: {
          operationId: 'updateWidget',
          summary: 'Update a widget',
          description: 'Replaces the widget.',
          tags: ['Widgets'],
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: { $ref: '#/components/schemas/Widget' },
                examples: { Blue: { summary: 'Blue widget', value: { widget_name: 'Blue', amount: '12.50' } } },
              },
            },
          },
          responses: {
            '200': {
              description: 'The widget.',
              headers: {
                'RateLimit-Limit': { description: 'Requests allowed.', schema: { type: 'integer', format: 'int32', minimum: 0, maximum: 1000 } },
              },
              content: {
                'application/json': {
                  schema: { $ref: '#/components/schemas/Widget' },
                  examples: { Blue: { summary: 'Blue widget', value: { widget_name: 'Blue', amount: '12.50' } } },
                },
              },
            },
            '400': errorResponse('bad_request'),
            '401': errorResponse('unauthorized'),
            '403': errorResponse('forbidden'),
            '404': errorResponse('not_found'),
            '422': errorResponse('unprocessable_entity'),
            '429': {
              ...errorResponse('rate_limited'),
              headers: {
                'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer', format: 'int32', minimum: 0, maximum: 3600 } },
              },
            },
          },
        },
      },
    },
    components: {
      securitySchemes: { basicAuth: { type: 'http', scheme: 'basic', description: 'Token as username.' } },
      schemas: {
        Widget: {
          type: 'object',
          description: 'A widget.',
          additionalProperties: false,
          required: ['widget_name', 'amount'],
          properties: {
            widget_name: { type: 'string', description: 'Name.', maxLength: 40 },
            amount: { type: 'string', description: 'Price.', pattern: '^\\d+\\.\\d{2}$' },
          },
        },
        Error: {
          type: 'object',
          description: 'An error.',
          additionalProperties: false,
          required: ['error'],
          properties: {
            error: {
              type: 'object',
              description: 'The error.',
              additionalProperties: false,
              required: ['code', 'message'],
              properties: {
                code: { type: 'string', description: 'Code.', pattern: '^[a-z_.]+$' },
                message: { type: 'string', description: 'Message.' },
              },
            },
          },
        },
      },
    },
  };
}

const operation = ['paths', '/widgets/{widget_id}', 'put'];
const widgetProperties = ['components', 'schemas', 'Widget', 'properties'];

describe('spectral ruleset', () => {
  test('a clean document passes every rule', async () => {
    const results = await lint(cleanDocument());
    assert.deepEqual(
      results.map((r) => `${r.code} ${r.path.join(' > ')}: ${r.message}`),
      [],
    );
  });

  describe('snake-case-properties', () => {
    test('fires on a camelCase property name', async () => {
      const doc = cleanDocument();
      doc.components.schemas.Widget.properties.widgetName = doc.components.schemas.Widget.properties.widget_name;
      await assertFires(doc, 'snake-case-properties', [...widgetProperties, 'widgetName']);
    });
  });

  describe('money-string', () => {
    test('fires on a numeric amount', async () => {
      const doc = cleanDocument();
      doc.components.schemas.Widget.properties.amount = { type: 'number', description: 'Price.' };
      await assertFires(doc, 'money-string', [...widgetProperties, 'amount']);
    });

    test('fires on a string money field without a pattern, found by its description', async () => {
      const doc = cleanDocument();
      doc.components.schemas.Widget.properties.fee = { type: 'string', description: 'Fee, an amount of money.', maxLength: 20 };
      await assertFires(doc, 'money-string', [...widgetProperties, 'fee']);
    });

    test('fires when one branch of a nullable money field is not a patterned string', async () => {
      const doc = cleanDocument();
      doc.components.schemas.Widget.properties.running_balance = {
        description: 'Balance after the widget was bought.',
        anyOf: [{ type: 'string', maxLength: 20 }, { type: 'null' }],
      };
      await assertFires(doc, 'money-string', [...widgetProperties, 'running_balance']);
    });

    test('accepts nullable money through a reference, and through a type list', async () => {
      const doc = cleanDocument();
      doc.components.schemas.Money = { type: 'string', description: 'Money.', pattern: '^-?\\d+\\.\\d{2}$' };
      Object.assign(doc.components.schemas.Widget.properties, {
        running_balance: { description: 'Balance.', anyOf: [{ $ref: '#/components/schemas/Money' }, { type: 'null' }] },
        ledger: { type: ['string', 'null'], description: 'Ledger.', pattern: '^-?\\d+\\.\\d{2}$' },
      });
      assert.deepEqual(findings(await lint(doc), 'money-string'), []);
    });
  });

  describe('operation-id-camel-case', () => {
    test('fires on a snake_case operationId', async () => {
      const doc = cleanDocument();
      doc.paths['/widgets/{widget_id}'].put.operationId = 'update_widget';
      await assertFires(doc, 'operation-id-camel-case', [...operation, 'operationId']);
    });

    test('fires on a missing operationId', async () => {
      const doc = cleanDocument();
      delete doc.paths['/widgets/{widget_id}'].put.operationId;
      await assertFires(doc, 'operation-id-camel-case', operation);
    });
  });

  describe('operation-summary-required', () => {
    test('fires on a missing summary', async () => {
      const doc = cleanDocument();
      delete doc.paths['/widgets/{widget_id}'].put.summary;
      await assertFires(doc, 'operation-summary-required', operation);
    });

    test('fires on a webhook operation without a summary', async () => {
      const doc = cleanDocument();
      doc.webhooks = {
        'widget.updated': {
          post: {
            operationId: 'onWidgetUpdated',
            tags: ['Widgets'],
            description: 'Sent when a widget changed.',
            requestBody: doc.paths['/widgets/{widget_id}'].put.requestBody,
            responses: { '200': { description: 'Received.' } },
          },
        },
      };
      await assertFires(doc, 'operation-summary-required', ['webhooks', 'widget.updated', 'post']);
    });
  });

  describe('operation-single-tag', () => {
    test('fires on two tags', async () => {
      const doc = cleanDocument();
      doc.tags.push({ name: 'Prices', description: 'Prices.' });
      doc.paths['/widgets/{widget_id}'].put.tags = ['Widgets', 'Prices'];
      await assertFires(doc, 'operation-single-tag', [...operation, 'tags']);
    });

    test('fires on no tag', async () => {
      const doc = cleanDocument();
      delete doc.paths['/widgets/{widget_id}'].put.tags;
      await assertFires(doc, 'operation-single-tag', operation);
    });
  });

  describe('operation-error-responses', () => {
    test('fires for each missing error response, with its reason', async () => {
      const doc = cleanDocument();
      const responses = doc.paths['/widgets/{widget_id}'].put.responses;
      for (const status of ['401', '404', '422']) delete responses[status];
      const found = await assertFires(doc, 'operation-error-responses', [...operation, 'responses']);
      assert.deepEqual(found.map((finding) => finding.message).sort(), [
        'Operation must declare a 401 response because it requires credentials.',
        'Operation must declare a 404 response because it takes path parameters.',
        'Operation must declare a 422 response because it takes a request body.',
      ]);
    });

    test('asks for 422 when the operation takes query parameters', async () => {
      const doc = cleanDocument();
      const put = doc.paths['/widgets/{widget_id}'].put;
      delete put.requestBody;
      delete put.responses['422'];
      put.parameters = [{ name: 'dry_run', in: 'query', description: 'Validate only.', schema: { type: 'boolean' } }];
      const found = await assertFires(doc, 'operation-error-responses', [...operation, 'responses']);
      assert.deepEqual(
        found.map((finding) => finding.message),
        ['Operation must declare a 422 response because it takes query parameters.'],
      );
    });

    test('asks an anonymous operation for no credential errors', async () => {
      const doc = cleanDocument();
      const put = doc.paths['/widgets/{widget_id}'].put;
      put.security = [];
      for (const status of ['400', '401', '403']) delete put.responses[status];
      assert.deepEqual(findings(await lint(doc), 'operation-error-responses'), []);
    });
  });

  describe('success-response-examples', () => {
    test('fires on a 2xx JSON response without examples', async () => {
      const doc = cleanDocument();
      delete doc.paths['/widgets/{widget_id}'].put.responses['200'].content['application/json'].examples;
      await assertFires(doc, 'success-response-examples', [...operation, 'responses', '200', 'content', 'application/json']);
    });
  });

  describe('request-body-examples', () => {
    test('fires on a request body media type without examples', async () => {
      const doc = cleanDocument();
      delete doc.paths['/widgets/{widget_id}'].put.requestBody.content['application/json'].examples;
      await assertFires(doc, 'request-body-examples', [...operation, 'requestBody', 'content', 'application/json']);
    });
  });

  describe('parameter-description', () => {
    test('fires on a parameter without a description', async () => {
      const doc = cleanDocument();
      delete doc.paths['/widgets/{widget_id}'].parameters[0].description;
      await assertFires(doc, 'parameter-description', ['paths', '/widgets/{widget_id}', 'parameters', '0']);
    });
  });

  describe('owasp:api8:2023-no-server-http (loopback allowed)', () => {
    test('fires on plain HTTP to another host', async () => {
      const doc = cleanDocument();
      doc.servers[0].url = 'http://api.widgets.test';
      await assertFires(doc, 'owasp:api8:2023-no-server-http', ['servers', '0', 'url']);
    });

    test('fires on a host that only starts like localhost', async () => {
      const doc = cleanDocument();
      doc.servers[0].url = 'http://localhost.widgets.test';
      await assertFires(doc, 'owasp:api8:2023-no-server-http', ['servers', '0', 'url']);
    });

    test('accepts plain HTTP on localhost', async () => {
      const doc = cleanDocument();
      doc.servers[0].url = 'http://localhost:3000';
      doc.servers[0].description = 'Local server.';
      assert.deepEqual(findings(await lint(doc), 'owasp:api8:2023-no-server-http'), []);
    });
  });

  describe('server-description-plain-text', () => {
    test('fires on Markdown in a server description', async () => {
      const doc = cleanDocument();
      doc.servers[0].description = 'Local server; tokens look like `test_token_...`.';
      await assertFires(doc, 'server-description-plain-text', ['servers', '0', 'description']);
    });
  });

  describe('license-url (url or SPDX identifier)', () => {
    test('fires when the license has neither', async () => {
      const doc = cleanDocument();
      delete doc.info.license.identifier;
      await assertFires(doc, 'license-url', ['info', 'license']);
    });
  });

  describe('overrides', () => {
    const anonymousEnrollment = () => {
      const doc = cleanDocument();
      doc.paths = { '/sandbox/enrollments': { post: { ...doc.paths['/widgets/{widget_id}'].put, security: [] } } };
      return doc;
    };

    test('owasp write-restricted fires on an anonymous write', async () => {
      await assertFires(anonymousEnrollment(), 'owasp:api2:2023-write-restricted', ['paths', '/sandbox/enrollments', 'post', 'security']);
    });

    test('owasp write-restricted is off for POST /sandbox/enrollments of the sandbox bundle', async () => {
      assert.deepEqual(findings(await lint(anonymousEnrollment(), 'dist/sandbox.json'), 'owasp:api2:2023-write-restricted'), []);
    });
  });
});
