// Type-level proof that the error codes module holds the declared codes: this file only has to compile.
import { type ErrorCode, errorCodes, type SentErrorCode } from '@aggregation/types/error-codes';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const assert = <T extends true>(): T => true as T;

// A family is named by its own tokens, without `.<reason>`.
assert<Equal<typeof errorCodes.accountClosed, 'account.closed'>>();
assert<Equal<typeof errorCodes.paymentsInsufficientFunds, 'payments.insufficient_funds'>>();

'payload_too_large' satisfies ErrorCode;
'method_not_allowed' satisfies ErrorCode;
// @ts-expect-error not a declared code
'verification_pending' satisfies ErrorCode;
// @ts-expect-error the constant is read-only
errorCodes.notFound = 'not_found';

// A family's code may carry reason tokens; a code that is not a family may not.
'account.closed.account_locked' satisfies SentErrorCode;
'rate_limited.enrollments_per_client' satisfies SentErrorCode;
// @ts-expect-error not_found is not a family
'not_found.account' satisfies SentErrorCode;
