// Type-level check, covered by typecheck: the server can only answer with codes the description declares.
import { ApiError, notFound } from '../src/domain/errors.ts';

new ApiError(410, 'account.closed.account_locked', 'a family with its reason tokens');
notFound('a declared code', 'enrollment.disconnected');
// @ts-expect-error not a code the description declares
new ApiError(404, 'no_such_code', 'undeclared');
// @ts-expect-error not_found is not a family: no reason tokens after it
notFound('undeclared reason', 'not_found.account');
