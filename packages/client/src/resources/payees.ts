// `client.payees`: creating a payee, which can answer with an MFA challenge instead of the payee.
import { isMfaChallenge, type PayeeResult } from '../payments.ts';
import type { ApiRequest, CallOptions } from '../request.ts';
import { attachResponse } from '../response-info.ts';
import type { CreatePayeeRequest, CurrentVersion, Version } from '../versions.ts';
import { accountParams } from './accounts.ts';

export type PayeesResource<V extends Version = CurrentVersion> = {
  create(accountId: string, payee: CreatePayeeRequest<V>, options?: CallOptions): Promise<PayeeResult<V>>;
};

export function payeesResource<V extends Version>(request: ApiRequest): PayeesResource<V> {
  return {
    async create(accountId, payee, call) {
      const { data, response } = await request.send('POST', '/accounts/{account_id}/payees', { params: accountParams(accountId), body: payee }, call);
      if (isMfaChallenge(data)) {
        return { kind: 'mfa', connectToken: data.connect_token, challenge: attachResponse(data, response) } as PayeeResult<V>;
      }
      return { kind: 'payee', payee: attachResponse(data, response) } as PayeeResult<V>;
    },
  };
}
