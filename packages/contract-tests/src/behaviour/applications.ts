// A sandbox application of the behaviour checks' own, so that what they change of an application (its default
// version, webhook URL and secrets, the events fired) touches no other suite's: created on the oldest version, its
// version upgraded, rolled back and upgraded again, each answering the version asked for and each read after it
// (`GET /sandbox/application`, and the `Service-Version` of a request that names none) agreeing; its webhook URL set,
// its secret rotated and the URL set back to none, each answering what was sent and read back the same, never seen by
// another application's token; an event fired, answered as sent and, when a receiver on this machine can be reached,
// delivered as answered with one valid signature per live secret.
import { createHmac } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { escapePointer } from '@aggregation/openapi/contract';
import { CURRENT_VERSION, VERSIONS } from '@aggregation/openapi/versions';
import type { Collector } from '../report/collect.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../webhook-receiver.ts';
import { at } from './checks.ts';
import { type Answer, type Http, shortly } from './http.ts';
import { rule } from './rules.ts';

const OLDEST = VERSIONS.at(-1)!;
const describedAt = (path: string, method: string) => `#/paths/${escapePointer(path)}/${method}/description`;
const sandboxRule = (pointer: string, words: string) => rule('sandbox', pointer, words);

type Application = { id?: string; default_version?: string; previous_version?: string | null; rollback_until?: string | null };
type Secret = { id: string; secret: string; expires_at: string | null };
type Settings = { url: string | null; secrets: Secret[] };
type FiredEvent = { id?: string; type?: string; payload?: unknown };

/** An application of the checks' own: its key, and a token of a healthy enrollment of it. */
export type OwnApplication = { key: string; application: Application };

/** A URL that never resolves (RFC 6761), for a webhook when no receiver here can be reached. */
export const UNREACHABLE_WEBHOOK = 'https://receiver.contract-tests.invalid/webhooks';

/** Creates the application on the oldest version; `writes: the application answers the version asked for`. */
export async function createOwnApplication(http: Http, collector: Collector): Promise<OwnApplication | undefined> {
  const created = await http.send('POST', '/sandbox/applications', { body: { default_version: OLDEST }, token: null });
  const body = created.json as { key?: string; application?: Application } | undefined;
  collector.record(
    at('sandbox', 'POST /sandbox/applications', 'writes: the application answers the version asked for'),
    created.status === 201 && body?.application?.default_version === OLDEST
      ? undefined
      : http.failure(
          created,
          `an application asked for on ${OLDEST} answered ${shortly(created)}`,
          sandboxRule(
            '#/components/schemas/CreateSandboxApplicationRequest/properties/default_version/description',
            "The application's default version",
          ),
        ),
  );
  return created.status === 201 && body?.key && body.application ? { key: body.key, application: body.application } : undefined;
}

/** Upgrade, roll back, upgrade again: each answers the version asked for, and reads after it agree. */
export async function checkApplicationVersion(http: Http, collector: Collector, token: string): Promise<void> {
  const versionOp = 'POST /sandbox/application/version';
  const written = (operation: string) => at('sandbox', operation, 'writes: the application answers the version asked for');
  const upgradeRule = sandboxRule(
    describedAt('/sandbox/application/version', 'post'),
    'from then on requests without `Service-Version` made with any of its tokens, and every event sent to its webhook, use the new version',
  );
  const rollbackRule = sandboxRule(
    describedAt('/sandbox/application/version/rollback', 'post'),
    'Restores the default version the last upgrade replaced',
  );
  const readsRule = rule(
    CURRENT_VERSION,
    '#/components/parameters/ServiceVersion/description',
    "Without it the default version of the token's application applies",
  );
  /** The version a request without Service-Version is served in, and the application as `GET /sandbox/application` reads it. */
  const readBack = async (expected: Answer, version: string) => {
    const served = await http.send('GET', '/accounts', { token });
    const named = served.headers.get('service-version');
    collector.record(
      at(CURRENT_VERSION, 'GET /accounts', "reads: requests without Service-Version use the application's version"),
      named === version
        ? undefined
        : http.failure(served, `the application's version is ${version}; a request without Service-Version was served in ${named}`, readsRule),
    );
    const read = await http.send('GET', '/sandbox/application', { token });
    collector.record(
      at('sandbox', 'GET /sandbox/application', "reads: requests without Service-Version use the application's version"),
      read.status === 200 && isDeepStrictEqual(read.json, expected.json)
        ? undefined
        : http.failure(read, `the application reads ${shortly(read)}; it was just answered as ${expected.text.slice(0, 300)}`, upgradeRule),
    );
  };
  if (VERSIONS.length < 2) {
    collector.skip(written(versionOp), 'the description has one version: nothing to upgrade to');
    return;
  }
  const clock = (await http.send('GET', '/sandbox/clock', { token })).json as { now?: string } | undefined;
  const upgrade = async () => {
    const up = await http.send('POST', '/sandbox/application/version', { body: { version: CURRENT_VERSION }, token });
    const app = up.json as Application | undefined;
    // 72 hours on the clock of the enrollment whose token asks, read just before (a slow machine may take minutes).
    const window = Date.parse(app?.rollback_until ?? '') - Date.parse(clock?.now ?? '');
    const right = up.status === 200 && app?.default_version === CURRENT_VERSION && window >= 72 * 3600_000 && window <= 72 * 3600_000 + 600_000;
    collector.record(
      written(versionOp),
      right
        ? undefined
        : http.failure(
            up,
            `an upgrade to ${CURRENT_VERSION} answered ${up.text.slice(0, 300)}; the enrollment's clock read ${clock?.now}`,
            upgradeRule,
          ),
    );
    return up;
  };
  const up = await upgrade();
  if (up.status !== 200) return;
  await readBack(up, CURRENT_VERSION);
  const back = await http.send('POST', '/sandbox/application/version/rollback', { token });
  const restored = back.json as Application | undefined;
  collector.record(
    written('POST /sandbox/application/version/rollback'),
    back.status === 200 && restored?.default_version === OLDEST && restored.previous_version === null
      ? undefined
      : http.failure(back, `a rollback of the upgrade from ${OLDEST} answered ${back.text.slice(0, 300)}`, rollbackRule),
  );
  await readBack(back, OLDEST);
  // Upgraded again, so that the events fired next are rendered in the current version's shape, as they are answered.
  const final = await upgrade();
  await readBack(final, CURRENT_VERSION);
}

/** `t` and the `v1` values of a `Service-Signature` header. */
function signatureOf(header: string | undefined): { t: number; v1: string[] } {
  const items = (header ?? '').split(',').map((item) => [item.slice(0, item.indexOf('=')), item.slice(item.indexOf('=') + 1)] as const);
  return { t: Number(items.find(([key]) => key === 't')?.[1]), v1: items.filter(([key]) => key === 'v1').map(([, value]) => value) };
}

/** The webhook settings: set, rotated, set back to none; an event fired (and, when it can arrive here, received). */
export async function checkWebhookSettings(
  http: Http,
  collector: Collector,
  token: string,
  options: { otherToken: string; enrollmentId: string; receiverReachable: boolean; waitMs: number },
): Promise<void> {
  const webhookOp = 'PUT /sandbox/webhook';
  const writes = at('sandbox', webhookOp, 'writes: the webhook settings answer the URL set and keep the secrets');
  const putRule = sandboxRule(describedAt('/sandbox/webhook', 'put'), "Sets the URL that receives the events of the token's application");
  const readRule = sandboxRule(
    describedAt('/sandbox/webhook', 'get'),
    "The webhook URL of the token's application and its signing secrets that have not expired",
  );
  const settingsOf = (answer: Answer) => answer.json as Settings | undefined;
  const readsBack = async (written: Answer) => {
    const read = await http.send('GET', '/sandbox/webhook', { token });
    collector.record(
      at('sandbox', 'GET /sandbox/webhook', 'reads: the webhook settings read back as written'),
      read.status === 200 && isDeepStrictEqual(read.json, written.json)
        ? undefined
        : http.failure(
            read,
            `the webhook settings read ${read.text.slice(0, 300)}; they were just answered as ${written.text.slice(0, 300)}`,
            readRule,
          ),
    );
  };
  const put = (url: string | null) => http.send('PUT', '/sandbox/webhook', { body: { url }, token });
  /** `writes: ...` of a PUT that set `url` where the secrets were `kept`, and the read after it. */
  const judgeWrite = async (answer: Answer, url: string | null, kept: Secret[] | undefined) => {
    const settings = settingsOf(answer);
    collector.record(
      writes,
      answer.status === 200 && settings?.url === url && isDeepStrictEqual(settings.secrets, kept)
        ? undefined
        : http.failure(answer, `the URL ${url} was set, the secrets were ${JSON.stringify(kept)}; the answer is ${answer.text.slice(0, 400)}`, putRule),
    );
    if (answer.status === 200) await readsBack(answer);
  };

  const before = await http.send('GET', '/sandbox/webhook', { token });
  const secretsBefore = settingsOf(before)?.secrets;
  let receiver: WebhookReceiver | undefined = options.receiverReachable ? await startWebhookReceiver() : undefined;
  try {
    let url = receiver?.url ?? UNREACHABLE_WEBHOOK;
    let set = await put(url);
    if (receiver && set.status === 422) {
      // A hosted sandbox refuses loopback addresses: events cannot arrive here.
      await receiver.close();
      receiver = undefined;
      url = UNREACHABLE_WEBHOOK;
      set = await put(url);
    }
    await judgeWrite(set, url, secretsBefore);

    const other = await http.send('GET', '/sandbox/webhook', { token: options.otherToken });
    const ownIds = new Set((settingsOf(set)?.secrets ?? []).map((s) => s.id));
    const seen = settingsOf(other)?.url === url || (settingsOf(other)?.secrets ?? []).some((s) => ownIds.has(s.id));
    collector.record(
      at('sandbox', 'GET /sandbox/webhook', "consistency: a token sees only its own application's webhook settings"),
      other.status === 200 && !seen
        ? undefined
        : http.failure(
            other,
            `a token of another application reads ${other.text.slice(0, 300)}; this application's URL is ${url}`,
            sandboxRule('#/components/schemas/WebhookSettings/description', 'Tokens of other applications never see them.'),
          ),
    );

    const rotated = await rotate(http, collector, token, secretsBefore);
    if (rotated.status === 201) await readsBack(rotated);
    const live = settingsOf(rotated)?.secrets ?? secretsBefore ?? [];

    const payload = { enrollment_id: options.enrollmentId, reason: 'disconnected.contract_tests_fired' };
    const fire = () => fireEvent(http, collector, token, payload);
    if (receiver) {
      const fired = await fire();
      await checkDelivery(http, collector, receiver, fired, live, options.waitMs);
    } else {
      collector.skip(
        at('sandbox', 'POST /sandbox/events', 'webhooks: an event arrives as fired, signed with every live secret'),
        options.receiverReachable
          ? 'the server refuses a webhook URL on this machine (a hosted sandbox refuses loopback addresses)'
          : 'the server is not on this machine: events sent to a receiver here may not arrive',
      );
    }
    await judgeWrite(await put(null), null, live);
    // Without a URL the event is recorded, not sent.
    if (!receiver) await fire();
  } finally {
    await receiver?.close();
  }
}

/** A rotation: the current secret expires when asked, a new current one comes first, the other live ones stay. */
async function rotate(http: Http, collector: Collector, token: string, before: Secret[] | undefined): Promise<Answer> {
  const expireAt = new Date(Date.now() + 3600_000).toISOString();
  const rotated = await http.send('POST', '/sandbox/webhook/secrets', { body: { expire_current_at: expireAt }, token });
  const secrets = (rotated.json as Settings | undefined)?.secrets ?? [];
  const current = before?.find((s) => s.expires_at === null);
  const [fresh, ...rest] = secrets;
  const old = rest.find((s) => s.id === current?.id);
  const keptOthers = (before ?? []).filter((s) => s !== current).every((s) => rest.some((r) => isDeepStrictEqual(r, s)));
  const right =
    rotated.status === 201 &&
    fresh?.expires_at === null &&
    !before?.some((s) => s.id === fresh.id) &&
    old !== undefined &&
    Date.parse(old.expires_at ?? '') === Date.parse(expireAt) &&
    old.secret === current?.secret &&
    keptOthers &&
    rest.length === (before?.length ?? 0);
  collector.record(
    at('sandbox', 'POST /sandbox/webhook/secrets', 'writes: a rotation expires the current secret when asked and adds a new current one'),
    right
      ? undefined
      : http.failure(
          rotated,
          `the current secret ${current?.id} was asked to expire at ${expireAt}; the secrets before were ${JSON.stringify(before)}, the answer is ${rotated.text.slice(0, 400)}`,
          sandboxRule(
            describedAt('/sandbox/webhook/secrets', 'post'),
            "Sets the current signing secret of the token's application to expire at `expire_current_at` and creates a new current secret at once.",
          ),
        ),
  );
  return rotated;
}

/** Fires an `enrollment.disconnected` event with a payload of its own; it answers that type and payload. */
async function fireEvent(http: Http, collector: Collector, token: string, payload: Record<string, unknown>): Promise<Answer> {
  const fired = await http.send('POST', '/sandbox/events', { body: { type: 'enrollment.disconnected', payload }, token });
  const event = fired.json as FiredEvent | undefined;
  collector.record(
    at('sandbox', 'POST /sandbox/events', 'writes: a fired event answers the type and payload sent'),
    fired.status === 202 && event?.type === 'enrollment.disconnected' && isDeepStrictEqual(event.payload, payload)
      ? undefined
      : http.failure(
          fired,
          `an enrollment.disconnected event with the payload ${JSON.stringify(payload)} answered ${fired.text.slice(0, 300)}`,
          sandboxRule(describedAt('/sandbox/events', 'post'), "Sends an event of any type to the webhook URL of the token's application"),
        ),
  );
  return fired;
}

/** The fired event arrives as it was answered, with one `v1` per live secret, each the HMAC the description defines. */
async function checkDelivery(
  http: Http,
  collector: Collector,
  receiver: WebhookReceiver,
  fired: Answer,
  live: Secret[],
  waitMs: number,
): Promise<void> {
  const check = at('sandbox', 'POST /sandbox/events', 'webhooks: an event arrives as fired, signed with every live secret');
  const id = (fired.json as FiredEvent | undefined)?.id;
  if (fired.status !== 202 || !id) {
    collector.skip(check, `the event could not be fired (${shortly(fired)})`);
    return;
  }
  const signedRule = rule(
    CURRENT_VERSION,
    '#/components/parameters/ServiceSignature/description',
    'followed by one more `,v1=<signature>` per additional non-expired signing secret',
  );
  const deadline = Date.now() + waitMs;
  const arrivedOf = () => receiver.deliveries.find((delivery) => delivery.body.includes(id));
  while (!arrivedOf() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  const arrived = arrivedOf();
  if (!arrived) {
    collector.skip(check, `event ${id} did not reach the receiver on this machine within ${waitMs / 1000} s: the server may not reach it`);
    return;
  }
  const header = arrived.headers['service-signature'];
  const { t, v1 } = signatureOf(Array.isArray(header) ? header.join(',') : header);
  const expected = live.map((s) => createHmac('sha256', s.secret).update(`${t}.${arrived.body}`).digest('hex'));
  let body: unknown;
  try {
    body = JSON.parse(arrived.body);
  } catch {
    body = arrived.body;
  }
  const problems = [
    ...(isDeepStrictEqual(body, fired.json) ? [] : [`the delivered body ${arrived.body.slice(0, 300)} is not the event answered`]),
    ...(Math.abs(Date.now() / 1000 - t) <= 180 ? [] : [`its t=${t} is not within 180 s of now`]),
    ...(v1.length === live.length && expected.every((value) => v1.includes(value))
      ? []
      : [`its Service-Signature ${header} does not carry the HMAC of each of the ${live.length} live secrets (${expected.join(', ')})`]),
  ];
  collector.record(check, problems.length ? http.failure(fired, `event ${id}: ${problems.join('; ')}`, signedRule) : undefined);
}
