// The enrollment widget's operations: its sessions, driven step by step without an access token (the application is
// named by its public id). Each step is a rule of the domain that the control API uses too (connect-sessions.ts).
import type { ConnectProduct } from '../../domain/connect-sessions.ts';
import { approveConnectSession, selectConnectAccounts, startConnectSession, submitCredentials, submitMfaCode } from '../../domain/connect-sessions.ts';
import { answer } from '../answer.ts';
import { type AppContext, clientAddressOf, type Runtime } from '../env.ts';
import { presentConnectSession } from '../present.ts';
import { sandboxBody } from '../respond.ts';
import type { SandboxHandlers } from './types.ts';

const sessionIdOf = (c: AppContext): string => c.req.param('session_id')!;
const limitedOf = (c: AppContext, runtime: Runtime) => ({ limits: runtime.limits, clientAddress: clientAddressOf(c) });

export const connectHandlers = {
  createConnectSession: {
    handle: async (c, runtime) => {
      const body = sandboxBody(c, 'createConnectSession');
      const state = await startConnectSession(runtime.deps, {
        applicationId: body.application_id,
        defaultApplication: runtime.defaultApplication,
        products: (body.products ?? []) as ConnectProduct[],
        selectAccount: body.select_account ?? 'disabled',
        nonce: body.nonce ?? null,
        enrollmentId: body.enrollment_id ?? null,
        connectToken: body.connect_token ?? null,
      });
      return answer.sandbox(c, 'createConnectSession', 201, presentConnectSession(c.get('base'), state));
    },
  },

  submitConnectCredentials: {
    handle: async (c, runtime) => {
      const body = sandboxBody(c, 'submitConnectCredentials');
      const input = { applicationId: body.application_id, institutionId: body.institution_id, username: body.username, password: body.password };
      const state = await submitCredentials(runtime.deps, sessionIdOf(c), input, limitedOf(c, runtime));
      return answer.sandbox(c, 'submitConnectCredentials', 200, presentConnectSession(c.get('base'), state));
    },
  },

  submitConnectMfa: {
    handle: async (c, runtime) => {
      const body = sandboxBody(c, 'submitConnectMfa');
      const state = await submitMfaCode(runtime.deps, sessionIdOf(c), { applicationId: body.application_id, code: body.code }, limitedOf(c, runtime));
      return answer.sandbox(c, 'submitConnectMfa', 200, presentConnectSession(c.get('base'), state));
    },
  },

  selectConnectAccounts: {
    handle: async (c, runtime) => {
      const body = sandboxBody(c, 'selectConnectAccounts');
      const input = { applicationId: body.application_id, accountIds: body.account_ids };
      const state = await selectConnectAccounts(runtime.deps, sessionIdOf(c), input, limitedOf(c, runtime));
      return answer.sandbox(c, 'selectConnectAccounts', 200, presentConnectSession(c.get('base'), state));
    },
  },

  approveConnectSession: {
    handle: async (c, runtime) => {
      const body = sandboxBody(c, 'approveConnectSession');
      const state = await approveConnectSession(runtime.deps, sessionIdOf(c), { applicationId: body.application_id });
      return answer.sandbox(c, 'approveConnectSession', 200, presentConnectSession(c.get('base'), state));
    },
  },
} satisfies Partial<SandboxHandlers>;
