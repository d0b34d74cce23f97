// Every error the description shows (each example of an error response) has a declared code, under the status the
// declaration gives it, and the reference's table of codes is rendered from the declaration.
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { deref, documentNames, type JsonObject, loadBundle, operationsOf } from '../src/contract.ts';
import { declaredErrorCode, type ErrorCode, errorCodesMarker, errorCodesOf, errorCodesTable } from '../src/error-codes.ts';

type Shown = { where: string; status: number; code: string };

/** The code of every example of every error response of a document's operations. */
function errorExamples(name: (typeof documentNames)[number]): Shown[] {
  const bundle = loadBundle(name);
  return operationsOf(bundle).flatMap(({ method, path, operation }) =>
    Object.entries((operation.responses ?? {}) as JsonObject)
      .filter(([status]) => /^[45]/.test(status))
      .flatMap(([status, raw]) => {
        const content = deref(bundle, raw).content as Record<string, JsonObject> | undefined;
        return Object.entries((content?.['application/json']?.examples ?? {}) as JsonObject).map(([example, value]) => ({
          where: `${name} ${method.toUpperCase()} ${path} ${status} ${example}`,
          status: Number(status),
          code: String(((deref(bundle, value).value as JsonObject).error as JsonObject).code),
        }));
      }),
  );
}

describe('error codes', () => {
  for (const name of documentNames) {
    test(`${name}: every error example has a declared code, under its status`, () => {
      const codes = errorCodesOf(loadBundle(name));
      const shown = errorExamples(name);
      assert.ok(shown.length > 5, `${shown.length} error examples`);
      const wrong = shown.flatMap((example) => {
        const declared = declaredErrorCode(codes, example.code);
        if (!declared) return [`${example.where}: ${example.code} is not declared in spec/error-codes.yaml`];
        return declared.status === example.status ? [] : [`${example.where}: ${example.code} is declared as ${declared.status}`];
      });
      assert.deepEqual(wrong, []);
    });

    test(`${name}: the reference's table of codes is rendered from the declaration`, () => {
      const bundle = loadBundle(name);
      const description = String(bundle.info.description);
      assert.ok(!description.includes(errorCodesMarker), 'the marker was replaced');
      if (name !== '2019-07-01') assert.ok(description.includes(errorCodesTable(errorCodesOf(bundle))));
    });
  }

  test('a family matches its code with or without reason tokens, and nothing else', () => {
    const codes: ErrorCode[] = [
      { code: 'account.closed.<reason>', status: 410, when: '', action: '' },
      { code: 'not_found', status: 404, when: '', action: '' },
    ];
    assert.equal(declaredErrorCode(codes, 'account.closed')?.status, 410);
    assert.equal(declaredErrorCode(codes, 'account.closed.insufficient_access')?.status, 410);
    assert.equal(declaredErrorCode(codes, 'account.closedx'), undefined);
    assert.equal(declaredErrorCode(codes, 'not_found.extra'), undefined);
  });
});
