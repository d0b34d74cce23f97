// The sandbox control API: what the connect widget and the dashboard do in live mode.
import type { sandboxComponents } from '../../contract/types.ts';
import { accountFor, closeAccount } from '../../domain/accounts.ts';
import { applicationForKey, createApplication, rollBackApplicationVersion, upgradeApplicationVersion } from '../../domain/applications.ts';
import { DAY_MS, enrollmentNow, isoTime, parseDateTime } from '../../domain/clock.ts';
import { approveConnectToken, findConnectToken } from '../../domain/connect-tokens.ts';
import { createEnrollment } from '../../domain/enrollments.ts';
import { ApiError, unprocessable } from '../../domain/errors.ts';
import type { EventPayloads, EventType } from '../../domain/events.ts';
import { isApplicationKey } from '../../domain/ids.ts';
import { advanceClock, disconnectEnrollment, enrollmentStatus, reconnectEnrollment, refreshEnrollment } from '../../domain/lifecycle.ts';
import { checkApplicationLimits, checkEnrollmentLimits } from '../../domain/limits.ts';
import { signingKeyOf } from '../../domain/signing-keys.ts';
import {
  type AnyFiredEvent,
  fireEvent,
  recentDeliveries,
  redeliver,
  rotateWebhookSecret,
  setWebhookUrl,
  webhookSettings,
} from '../../domain/webhooks.ts';
import { type ApplicationRow, DEFAULT_APPLICATION_ID, type EnrollmentRow } from '../../storage/store.ts';
import { VERSIONS } from '../../versions/index.ts';
import { refusedUrl } from '../../webhooks/targets.ts';
import { answer } from '../answer.ts';
import { type AppContext, clientAddressOf, type Runtime } from '../env.ts';
import { tokenOf } from '../middleware/auth.ts';
import { applicationView, institutionOf, presentAccount, presentConnectToken, presentDelivery, presentWebhookSettings, userOf } from '../present.ts';
import { requestLogScope } from '../request-log.ts';
import { sandboxBody } from '../respond.ts';
import { connectHandlers } from './connect.ts';
import type { SandboxHandlers } from './types.ts';

const clockOf = (runtime: Runtime, enrollment: EnrollmentRow) => ({
  now: isoTime(enrollmentNow(runtime.deps.now, enrollment)),
  offset_seconds: Math.floor(enrollment.clock_offset_ms / 1000),
});

/** An application as the control API shows it, with its signing key and its rollback window at `now`. */
const presentApplication = async (runtime: Runtime, application: ApplicationRow, now: number) =>
  applicationView(application, await signingKeyOf(runtime.deps, application.id), runtime.defaultVersion, now);

/** The token's application, with its rollback window on the enrollment's clock. */
const applicationOf = (c: AppContext, runtime: Runtime) =>
  presentApplication(runtime, c.get('application'), enrollmentNow(runtime.deps.now, c.get('enrollment')));

/** The enrollment's state as the control API shows it. */
const enrollmentState = (enrollment: EnrollmentRow) => ({
  id: enrollment.id,
  status: enrollmentStatus(enrollment),
  institution: institutionOf(enrollment),
  user: userOf(enrollment),
});

const connectTokenOf = (c: AppContext): string => c.req.param('connect_token')!;

/** The application a new enrollment joins: the one whose key is the Basic username, else the default one. */
async function enrollingApplication(runtime: Runtime, c: AppContext): Promise<string> {
  const credential = tokenOf(c);
  if (credential !== undefined && isApplicationKey(credential)) return (await applicationForKey(runtime.deps, credential)).id;
  if (runtime.defaultApplication) return DEFAULT_APPLICATION_ID;
  throw new ApiError(
    401,
    'application_key_required',
    'This sandbox has no default application: create one with POST /sandbox/applications and send its key as the HTTP Basic username.',
    undefined,
    { 'WWW-Authenticate': 'Basic realm="sandbox", charset="UTF-8"' },
  );
}

export const sandboxHandlers: SandboxHandlers = {
  createSandboxApplication: {
    handle: async (c, runtime) => {
      // The body is optional, which the operation's helper types cannot express.
      const body = (c.get('body') ?? {}) as sandboxComponents['schemas']['CreateSandboxApplicationRequest'];
      const clientAddress = clientAddressOf(c);
      await checkApplicationLimits(runtime.deps, runtime.limits, clientAddress);
      const created = await createApplication(runtime.deps, {
        version: body.default_version ?? runtime.defaultVersion,
        clientAddress,
        name: body.name,
      });
      return answer.sandbox(c, 'createSandboxApplication', 201, {
        key: created.key,
        application: await presentApplication(runtime, created.application, runtime.deps.now()),
      });
    },
  },

  getSandboxApplication: {
    handle: async (c, runtime) => answer.sandbox(c, 'getSandboxApplication', 200, await applicationOf(c, runtime)),
  },

  upgradeSandboxApplicationVersion: {
    handle: async (c, runtime) => {
      const { version } = sandboxBody(c, 'upgradeSandboxApplicationVersion');
      const now = enrollmentNow(runtime.deps.now, c.get('enrollment'));
      const upgraded = await upgradeApplicationVersion(runtime.deps, c.get('application').id, {
        version,
        versions: VERSIONS,
        serverDefault: runtime.defaultVersion,
        now,
      });
      return answer.sandbox(c, 'upgradeSandboxApplicationVersion', 200, await presentApplication(runtime, upgraded, now));
    },
  },

  rollBackSandboxApplicationVersion: {
    handle: async (c, runtime) => {
      const now = enrollmentNow(runtime.deps.now, c.get('enrollment'));
      const restored = await rollBackApplicationVersion(runtime.deps, c.get('application').id, now);
      return answer.sandbox(c, 'rollBackSandboxApplicationVersion', 200, await presentApplication(runtime, restored, now));
    },
  },

  createSandboxEnrollment: {
    handle: async (c, runtime) => {
      const body = sandboxBody(c, 'createSandboxEnrollment');
      const applicationId = await enrollingApplication(runtime, c);
      const clientAddress = clientAddressOf(c);
      await checkEnrollmentLimits(runtime.deps, runtime.limits, applicationId, clientAddress);
      const { mfa_code: mfaCode, ...credentials } = body;
      const created = await createEnrollment(runtime.deps, { ...credentials, mfaCode, applicationId, clientAddress });
      return answer.sandbox(c, 'createSandboxEnrollment', 201, {
        access_token: created.token,
        user: userOf(created.enrollment),
        enrollment: { id: created.enrollment.id, institution: institutionOf(created.enrollment) },
        accounts: created.accounts.map((row) => presentAccount(c.get('base'), row, created.enrollment.institution_id)),
      });
    },
  },

  disconnectSandboxEnrollment: {
    handle: async (c, runtime) => {
      const reason = sandboxBody(c, 'disconnectSandboxEnrollment').reason ?? null;
      const enrollment = await disconnectEnrollment(runtime.deps, c.get('enrollment').id, reason);
      return answer.sandbox(c, 'disconnectSandboxEnrollment', 200, enrollmentState(enrollment));
    },
  },

  reconnectSandboxEnrollment: {
    handle: async (c, runtime) => {
      const enrollment = await reconnectEnrollment(runtime.deps, c.get('enrollment').id);
      return answer.sandbox(c, 'reconnectSandboxEnrollment', 200, enrollmentState(enrollment));
    },
  },

  getSandboxConnectToken: {
    handle: async (c, runtime) => {
      const token = connectTokenOf(c);
      const found = await findConnectToken(runtime.deps, c.get('application').id, token);
      return answer.sandbox(c, 'getSandboxConnectToken', 200, presentConnectToken(token, found));
    },
  },

  approveSandboxConnectToken: {
    handle: async (c, runtime) => {
      const token = connectTokenOf(c);
      const approved = await approveConnectToken(runtime.deps, c.get('application').id, token);
      return answer.sandbox(c, 'approveSandboxConnectToken', 200, presentConnectToken(token, approved));
    },
  },

  refreshSandboxEnrollment: {
    handle: async (c, runtime) => {
      const added = await refreshEnrollment(runtime.deps, c.get('enrollment'));
      return answer.sandbox(c, 'refreshSandboxEnrollment', 200, { new_transactions: added });
    },
  },

  closeSandboxAccount: {
    handle: async (c, runtime) => {
      const enrollment = c.get('enrollment');
      const account = await accountFor(runtime.deps, enrollment, c.req.param('account_id')!, { allowClosed: true });
      const reason = sandboxBody(c, 'closeSandboxAccount').reason ?? null;
      // Closing a closed account changes nothing.
      const closed = account.status === 'closed' ? account : await closeAccount(runtime.deps, account, reason);
      return answer.sandbox(c, 'closeSandboxAccount', 200, presentAccount(c.get('base'), closed, enrollment.institution_id));
    },
  },

  getSandboxClock: {
    handle: (c, runtime) => answer.sandbox(c, 'getSandboxClock', 200, clockOf(runtime, c.get('enrollment'))),
  },

  advanceSandboxClock: {
    handle: async (c, runtime) => {
      const body = sandboxBody(c, 'advanceSandboxClock');
      const advanceMs = (body.days ?? 0) * DAY_MS + (body.seconds ?? 0) * 1000;
      const enrollment = await advanceClock(runtime.deps, c.get('enrollment').id, advanceMs);
      return answer.sandbox(c, 'advanceSandboxClock', 200, clockOf(runtime, enrollment));
    },
  },

  getSandboxWebhook: {
    handle: async (c, runtime) =>
      answer.sandbox(c, 'getSandboxWebhook', 200, presentWebhookSettings(await webhookSettings(runtime.deps, c.get('application').id))),
  },

  setSandboxWebhook: {
    handle: async (c, runtime) => {
      const { url } = sandboxBody(c, 'setSandboxWebhook');
      if (url !== null && !/^https?:\/\//i.test(url)) throw unprocessable({ url: ['must be an absolute http or https URL'] });
      const refused = url === null ? undefined : refusedUrl(url, runtime.webhookTargets);
      if (refused) throw new ApiError(422, 'webhook_url.refused', 'The webhook URL is refused.', { url: [refused] });
      const settings = await setWebhookUrl(runtime.deps, c.get('application').id, url);
      return answer.sandbox(c, 'setSandboxWebhook', 200, presentWebhookSettings(settings));
    },
  },

  rotateSandboxWebhookSecret: {
    handle: async (c, runtime) => {
      const { expire_current_at } = sandboxBody(c, 'rotateSandboxWebhookSecret');
      const expireAt = parseDateTime(expire_current_at);
      const settings = await rotateWebhookSecret(runtime.deps, c.get('application').id, expireAt);
      return answer.sandbox(c, 'rotateSandboxWebhookSecret', 201, presentWebhookSettings(settings));
    },
  },

  fireSandboxEvent: {
    handle: async (c, runtime) => {
      const { type, payload } = sandboxBody(c, 'fireSandboxEvent') as { type: EventType; payload?: EventPayloads[EventType] };
      const event = (await fireEvent(runtime.deps, c.get('enrollment'), type, payload)) as AnyFiredEvent;
      return answer.sandbox(c, 'fireSandboxEvent', 202, event);
    },
  },

  listSandboxWebhookDeliveries: {
    handle: async (c, runtime) => {
      const rows = await recentDeliveries(runtime.deps, c.get('application').id);
      return answer.sandbox(c, 'listSandboxWebhookDeliveries', 200, rows.map(presentDelivery));
    },
  },

  redeliverSandboxWebhookDelivery: {
    handle: async (c, runtime) => {
      const row = await redeliver(runtime.deps, c.get('application').id, c.req.param('delivery_id')!);
      return answer.sandbox(c, 'redeliverSandboxWebhookDelivery', 202, presentDelivery(row));
    },
  },

  streamSandboxLogs: {
    handle: (c, runtime) => {
      const timeoutSeconds = c.get('params').timeout_seconds as number | undefined;
      const stream = runtime.requestLog.stream(requestLogScope(c.get('enrollment'))!, timeoutSeconds && timeoutSeconds * 1000);
      return answer.ndjson(c, 'streamSandboxLogs', stream);
    },
  },

  ...connectHandlers,
};
