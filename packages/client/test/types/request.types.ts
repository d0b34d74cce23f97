// Type tests of the request helper the resource modules send through: only compiled (npm run typecheck), never run.
// Each `@ts-expect-error` marks a call that must NOT compile.
import type { ApiRequest, OperationPath } from '../../src/request.ts';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const assert = <T extends true>(): T => true as T;

declare const request: ApiRequest;

export async function paths() {
  // The paths with a method in every version, and no others.
  assert<Equal<OperationPath<'DELETE'>, '/accounts' | '/accounts/{account_id}'>>();
  assert<Equal<OperationPath<'OPTIONS'>, '/accounts/{account_id}/payments'>>();

  await request.read('GET', '/accounts', {});
  // @ts-expect-error misspelt path
  await request.read('GET', '/acounts', {});
  // @ts-expect-error no POST on /accounts
  await request.read('POST', '/accounts', {});
  // @ts-expect-error a path of the sandbox control API, not of the API
  await request.read('POST', '/sandbox/enrollments', {});
}

export async function pathParameters() {
  await request.read('GET', '/accounts/{account_id}/payments/{payment_id}', { params: { path: { account_id: 'a', payment_id: 'p' } } });
  // @ts-expect-error the template's parameters are required
  await request.read('GET', '/accounts/{account_id}', {});
  // @ts-expect-error payment_id is missing
  await request.read('GET', '/accounts/{account_id}/payments/{payment_id}', { params: { path: { account_id: 'a' } } });
  // @ts-expect-error a parameter the template does not have
  await request.read('GET', '/accounts/{account_id}', { params: { path: { account_id: 'a', id: 'b' } } });
  // @ts-expect-error a path without parameters takes none
  await request.empty('DELETE', '/accounts', { params: { path: { account_id: 'a' } } });
}
