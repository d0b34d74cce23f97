// The client's error codes are the description's: every code a bundle declares (`x-error-codes`) is in ErrorCodes,
// and ErrorCodes holds nothing the description does not declare.
import assert from 'node:assert/strict';
import { documentNames, loadBundle } from '@aggregation/openapi/contract';
import { errorCodesOf } from '@aggregation/openapi/error-codes';
import { describe, it } from 'vitest';
import { type ErrorCode, ErrorCodes } from '../src/index.ts';

/** A family is declared as `account.closed.<reason>` and listed as `account.closed`. */
const declared = new Set(documentNames.flatMap((name) => errorCodesOf(loadBundle(name)).map(({ code }) => code.replace(/\.<reason>$/, ''))));
const listed = new Set<string>(Object.values(ErrorCodes));

describe('ErrorCodes', () => {
  it('has every code the description declares', () => {
    assert.deepEqual(
      [...declared].filter((code) => !listed.has(code)),
      [],
    );
    for (const code of ['payments.insufficient_funds', 'payload_too_large', 'method_not_allowed']) assert.ok(listed.has(code), code);
  });

  it('has no code the description does not declare', () => {
    assert.deepEqual(
      [...listed].filter((code) => !declared.has(code)),
      [],
    );
  });

  it('keeps the names of earlier releases', () => {
    assert.equal(ErrorCodes.verificationPending, 'account_number_verification_pending');
    assert.equal(ErrorCodes.verificationExpired, 'account_number_verification_expired');
    assert.equal(ErrorCodes.accountClosed, 'account.closed');
    assert.equal(ErrorCodes.paymentsNotSupported satisfies ErrorCode, 'payments.not_supported');
  });
});
