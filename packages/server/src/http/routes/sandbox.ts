// The sandbox control API: what the connect widget and the dashboard do in live mode.
import type { sandboxComponents } from '../../contract/types.ts';
import { accountFor, closeAccount } from '../../domain/accounts.ts';
import { applicationForKey, createApplication, rollBackApplicationVersion, upgradeApplicationVersion } from '../../domain/applications.ts';
import { DAY_MS, enrollmentNow, isoTime, parseDateTime } from '../../domain/clock.ts';
import { createEnrollment } from '../../domain/enrollments.ts';
import { ApiError, unprocessable } from '../../domain/errors.ts';
import type { EventPayloads, EventType } from '../../domain/events.ts';
import { isApplicationKey } from '../../domain/ids.ts';
import { advanceClock, disconnectEnrollment, enrollmentStatus, refreshEnrollment } from '../../domain/lifecycle.ts';
import { checkApplicationLimits, checkEnrollmentLimits } from '../../domain/limits.ts';
import { fireEvent, recentDeliveries, redeliver, rotateWebhookSecret, setWebhookUrl, webhookSettings } from '../../domain/webhooks.ts';
import { DEFAULT_APPLICATION_ID, type EnrollmentRow } from '../../storage/store.ts';
import { VERSIONS } from '../../versions/index.ts';
import { refusedUrl } from '../../webhooks/targets.ts';
import { type AppContext, clientAddressOf, type Runtime } from '../env.ts';
import { tokenOf } from '../middleware/auth.ts';
import { applicationView, institutionOf, presentAccount, presentDelivery } from '../present.ts';
import { LOGS_PATH, requestLogScope } from '../request-log.ts';
import { sandboxBody, sandboxJson } from '../respond.ts';
import type { Router } from '../router.ts';

const clockOf = (runtime: Runtime, enrollment: EnrollmentRow) => ({
  now: isoTime(enrollmentNow(runtime.deps.now, enrollment)),
  offset_seconds: Math.floor(enrollment.clock_offset_ms / 1000),
});

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

export function sandboxRoutes(r: Router, runtime: Runtime): void {
  const sandbox = { document: 'sandbox' } as const;
  const deps = runtime.deps;
  const applicationOf = (c: AppContext) => applicationView(c.get('application'), runtime.defaultVersion, enrollmentNow(deps.now, c.get('enrollment')));

  r.route('post', '/sandbox/applications', { ...sandbox, operationId: 'createSandboxApplication', auth: false }, async (c) => {
    // The body is optional, which the operation's helper types cannot express.
    const body = (c.get('body') ?? {}) as sandboxComponents['schemas']['CreateSandboxApplicationRequest'];
    const clientAddress = clientAddressOf(c);
    await checkApplicationLimits(deps, runtime.limits, clientAddress);
    const created = await createApplication(deps, { version: body.default_version ?? runtime.defaultVersion, clientAddress });
    return sandboxJson(c, 'createSandboxApplication', 201, {
      key: created.key,
      application: applicationView(created.application, runtime.defaultVersion, deps.now()),
    });
  });

  r.route('get', '/sandbox/application', { ...sandbox, operationId: 'getSandboxApplication' }, (c) =>
    sandboxJson(c, 'getSandboxApplication', 200, applicationOf(c)),
  );

  r.route('post', '/sandbox/application/version', { ...sandbox, operationId: 'upgradeSandboxApplicationVersion' }, async (c) => {
    const { version } = sandboxBody(c, 'upgradeSandboxApplicationVersion');
    const now = enrollmentNow(deps.now, c.get('enrollment'));
    const upgraded = await upgradeApplicationVersion(deps, c.get('application').id, {
      version,
      versions: VERSIONS,
      serverDefault: runtime.defaultVersion,
      now,
    });
    return sandboxJson(c, 'upgradeSandboxApplicationVersion', 200, applicationView(upgraded, runtime.defaultVersion, now));
  });

  r.route('post', '/sandbox/application/version/rollback', { ...sandbox, operationId: 'rollBackSandboxApplicationVersion' }, async (c) => {
    const now = enrollmentNow(deps.now, c.get('enrollment'));
    const restored = await rollBackApplicationVersion(deps, c.get('application').id, now);
    return sandboxJson(c, 'rollBackSandboxApplicationVersion', 200, applicationView(restored, runtime.defaultVersion, now));
  });

  r.route('post', '/sandbox/enrollments', { ...sandbox, operationId: 'createSandboxEnrollment', auth: false }, async (c) => {
    const body = sandboxBody(c, 'createSandboxEnrollment');
    const applicationId = await enrollingApplication(runtime, c);
    const clientAddress = clientAddressOf(c);
    await checkEnrollmentLimits(deps, runtime.limits, applicationId, clientAddress);
    const created = await createEnrollment(deps, { ...body, applicationId, clientAddress });
    return sandboxJson(c, 'createSandboxEnrollment', 201, {
      access_token: created.token,
      enrollment: { id: created.enrollment.id, institution: institutionOf(created.enrollment) },
      accounts: created.accounts.map((row) => presentAccount(c.get('base'), row, created.enrollment.institution_id)),
    });
  });

  r.route('post', '/sandbox/enrollment/disconnect', { ...sandbox, operationId: 'disconnectSandboxEnrollment' }, async (c) => {
    const reason = sandboxBody(c, 'disconnectSandboxEnrollment').reason ?? null;
    const enrollment = await disconnectEnrollment(deps, c.get('enrollment').id, reason);
    return sandboxJson(c, 'disconnectSandboxEnrollment', 200, {
      id: enrollment.id,
      status: enrollmentStatus(enrollment),
      institution: institutionOf(enrollment),
    });
  });

  r.route('post', '/sandbox/enrollment/refresh', { ...sandbox, operationId: 'refreshSandboxEnrollment' }, async (c) => {
    const added = await refreshEnrollment(deps, c.get('enrollment'));
    return sandboxJson(c, 'refreshSandboxEnrollment', 200, { new_transactions: added });
  });

  r.route('post', '/sandbox/accounts/:account_id/close', { ...sandbox, operationId: 'closeSandboxAccount' }, async (c) => {
    const enrollment = c.get('enrollment');
    const account = await accountFor(deps, enrollment, c.req.param('account_id')!, { allowClosed: true });
    const reason = sandboxBody(c, 'closeSandboxAccount').reason ?? null;
    // Closing a closed account changes nothing.
    const closed = account.status === 'closed' ? account : await closeAccount(deps, account, reason);
    return sandboxJson(c, 'closeSandboxAccount', 200, presentAccount(c.get('base'), closed, enrollment.institution_id));
  });

  r.route('get', '/sandbox/clock', { ...sandbox, operationId: 'getSandboxClock' }, (c) =>
    sandboxJson(c, 'getSandboxClock', 200, clockOf(runtime, c.get('enrollment'))),
  );

  r.route('post', '/sandbox/clock/advance', { ...sandbox, operationId: 'advanceSandboxClock' }, async (c) => {
    const body = sandboxBody(c, 'advanceSandboxClock');
    const advanceMs = (body.days ?? 0) * DAY_MS + (body.seconds ?? 0) * 1000;
    const enrollment = await advanceClock(deps, c.get('enrollment').id, advanceMs);
    return sandboxJson(c, 'advanceSandboxClock', 200, clockOf(runtime, enrollment));
  });

  r.route('get', '/sandbox/webhook', { ...sandbox, operationId: 'getSandboxWebhook' }, async (c) =>
    sandboxJson(c, 'getSandboxWebhook', 200, await webhookSettings(deps, c.get('application').id)),
  );

  r.route('put', '/sandbox/webhook', { ...sandbox, operationId: 'setSandboxWebhook' }, async (c) => {
    const { url } = sandboxBody(c, 'setSandboxWebhook');
    if (url !== null && !/^https?:\/\//i.test(url)) throw unprocessable({ url: ['must be an absolute http or https URL'] });
    const refused = url === null ? undefined : refusedUrl(url, runtime.webhookTargets);
    if (refused) throw new ApiError(422, 'webhook_url.refused', 'The webhook URL is refused.', { url: [refused] });
    return sandboxJson(c, 'setSandboxWebhook', 200, await setWebhookUrl(deps, c.get('application').id, url));
  });

  r.route('post', '/sandbox/webhook/secrets', { ...sandbox, operationId: 'rotateSandboxWebhookSecret' }, async (c) => {
    const { expire_current_at } = sandboxBody(c, 'rotateSandboxWebhookSecret');
    return sandboxJson(
      c,
      'rotateSandboxWebhookSecret',
      201,
      await rotateWebhookSecret(deps, c.get('application').id, parseDateTime(expire_current_at)),
    );
  });

  r.route('post', '/sandbox/events', { ...sandbox, operationId: 'fireSandboxEvent' }, async (c) => {
    const { type, payload } = sandboxBody(c, 'fireSandboxEvent') as { type: EventType; payload?: EventPayloads[EventType] };
    const event = await fireEvent(deps, c.get('enrollment'), type, payload);
    return sandboxJson(c, 'fireSandboxEvent', 202, event);
  });

  r.route('get', '/sandbox/webhook/deliveries', { ...sandbox, operationId: 'listSandboxWebhookDeliveries' }, async (c) => {
    const rows = await recentDeliveries(deps, c.get('application').id);
    return sandboxJson(c, 'listSandboxWebhookDeliveries', 200, rows.map(presentDelivery));
  });

  r.route('post', '/sandbox/webhook/deliveries/:delivery_id/redeliver', { ...sandbox, operationId: 'redeliverSandboxWebhookDelivery' }, async (c) =>
    sandboxJson(
      c,
      'redeliverSandboxWebhookDelivery',
      202,
      presentDelivery(await redeliver(deps, c.get('application').id, c.req.param('delivery_id')!)),
    ),
  );

  r.route('get', LOGS_PATH, { ...sandbox, operationId: 'streamSandboxLogs' }, (c) => {
    const timeoutSeconds = c.get('params').timeout_seconds as number | undefined;
    const stream = runtime.requestLog.stream(requestLogScope(c.get('enrollment'))!, timeoutSeconds && timeoutSeconds * 1000);
    return c.body(stream, 200, { 'Content-Type': 'application/x-ndjson', 'Cache-Control': 'no-store' });
  });
}
