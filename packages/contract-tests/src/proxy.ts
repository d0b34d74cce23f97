// The server behind Prism's validation proxy (one per document, `--errors`), driven by the scripted client journey of
// each version. Prism reports what breaks the description in the `sl-violations` header of the answer (and, with
// --errors, turns the answer into an error); every reported violation fails the testcase of its operation.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createClient, createSandboxClient, type Version } from '@aggregation/client';
import { type Running, startValidationProxy } from '@aggregation/mock';
import { type DocumentName, operationsOf } from '@aggregation/openapi/contract';
import { CURRENT_VERSION, DOCUMENT_NAMES, VERSIONS } from '@aggregation/openapi/versions';
import { validatorOf } from './coverage.ts';
import { eventTypes, runJourney } from './journey.ts';
import { Collector } from './report/collect.ts';
import { curlOf, excerpt } from './report/curl.ts';
import { emptyOutcome, type SuiteContext, type SuiteOutcome } from './suite.ts';
import { startWebhookReceiver, validateDelivery, waitForDeliveries } from './webhook-receiver.ts';

type Exchange = {
  document: DocumentName;
  method: string;
  url: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  status: number;
  answer: string;
  violations: string[];
};

/** A fetch that records each exchange with the violations the proxy reported for it. */
function recordingFetch(document: DocumentName, exchanges: Exchange[]) {
  return async (request: Request): Promise<Response> => {
    const body = request.body ? await request.clone().text() : '';
    const response = await fetch(request);
    const header = response.headers.get('sl-violations');
    const violations = header ? (JSON.parse(header) as { severity: string; message: string; location?: string[] }[]) : [];
    const answer = violations.length ? await response.clone().text() : '';
    exchanges.push({
      document,
      method: request.method,
      url: request.url,
      path: new URL(request.url).pathname,
      headers: Object.fromEntries(request.headers),
      body,
      status: response.status,
      answer,
      violations: violations.map((v) => `[${v.severity}] ${v.location?.join('.') ?? ''}: ${v.message}`),
    });
    return response;
  };
}

export async function runProxySuite(ctx: SuiteContext): Promise<SuiteOutcome> {
  if (ctx.sandbox.mode !== 'own-application') {
    return { ...emptyOutcome(), skipped: ['the journey enrolls sandbox users, which needs the sandbox control API (not with --token)'] };
  }
  if (ctx.options.quick) {
    return { ...emptyOutcome(), skipped: ["Prism's validation proxy and the scripted journeys: not with --quick (the default run has them)"] };
  }
  const collector = new Collector('proxy');
  const outcome = emptyOutcome();
  const versions = VERSIONS;
  const documents = DOCUMENT_NAMES;
  const proxies = new Map<DocumentName, Running>();
  const receiver = await startWebhookReceiver();
  const exchanges: Exchange[] = [];
  try {
    // One at a time: each Prism is a heavy start, and the other suites are running.
    for (const document of documents) proxies.set(document, await startValidationProxy({ version: document, upstream: ctx.baseUrl }));
    const sandboxUrl = proxies.get('sandbox')!.url;
    let firedEvents = 0;
    for (const version of versions satisfies readonly Version[]) {
      const apiUrl = proxies.get(version)!.url;
      const steps = await runJourney({
        version,
        api: (token) => createClient({ token, baseUrl: apiUrl, version, retry: false, fetch: recordingFetch(version, exchanges) }),
        sandbox: (token, applicationKey) =>
          createSandboxClient({
            baseUrl: sandboxUrl,
            fetch: recordingFetch('sandbox', exchanges),
            ...(token ? { token } : applicationKey ? { applicationKey } : {}),
          }),
        applicationKey: ctx.sandbox.applicationKey!,
        // Only a server started here can reach a receiver on this machine; elsewhere the webhook URL stays as it is.
        ...(ctx.server.startedHere ? { webhookUrl: receiver.url } : {}),
      });
      firedEvents += eventTypes.length;
      for (const step of steps.results) {
        collector.record({ document: version, check: `journey: ${step.name}` }, step.problem === undefined ? undefined : { message: step.problem });
      }
      collector.note(version, `journey ${version}: ${steps.count} steps, ${steps.problems.length} unexpected answers`);
    }

    // Stopped first so that their logs are complete.
    await Promise.all([...proxies.values()].map((proxy) => proxy.stop()));
    await mkdir(join(ctx.reportDir, 'proxy'), { recursive: true });
    for (const document of documents) {
      const validator = validatorOf(document);
      const mine = exchanges.filter((e) => e.document === document);
      for (const exchange of mine) {
        const matched = validator.match(exchange.method, exchange.path);
        const key = { document, operation: `${exchange.method} ${matched?.path ?? exchange.path}`, check: 'prism validation' };
        const request = { method: exchange.method, url: exchange.url, headers: exchange.headers, ...(exchange.body ? { body: exchange.body } : {}) };
        collector.record(
          key,
          exchange.violations.length
            ? {
                message: exchange.violations.join('\n'),
                request,
                response: { status: exchange.status, excerpt: excerpt(exchange.answer) },
                curl: curlOf(request),
              }
            : undefined,
        );
      }
      const called = new Set(mine.map((e) => validator.match(e.method, e.path)?.operation.operationId).filter(Boolean));
      const missed = operationsOf(validator.doc)
        .map((o) => o.operationId)
        .filter((id) => !called.has(id));
      collector.record(
        { document, check: 'journey: every operation called' },
        missed.length ? { message: `not called: ${missed.join(', ')}` } : undefined,
      );
      const log = proxies.get(document)!.log();
      const file = `proxy/prism-${document}.log`;
      await writeFile(join(ctx.reportDir, file), log);
      outcome.rawOutputs.push(file);
      collector.note(
        document,
        `${called.size} operations through Prism, ${mine.length} requests, ${mine.filter((e) => e.violations.length).length} with violations`,
      );
    }

    // Prism ignores `webhooks`: the delivered events are validated here, against the current version's webhooks.
    if (!ctx.server.startedHere) {
      outcome.skipped.push('webhook deliveries: only checked for a server started here (a server elsewhere may not reach this machine)');
    } else {
      const arrived = await waitForDeliveries(receiver, firedEvents, ctx.options.webhookWaitSeconds * 1000);
      const current = validatorOf(CURRENT_VERSION);
      const sandbox = validatorOf('sandbox');
      for (const delivery of receiver.deliveries) {
        const type = /"type"\s*:\s*"([^"]+)"/.exec(delivery.body)?.[1] ?? 'unknown';
        // The sandbox's own events (a reconnect's) are described in the sandbox document only.
        const ownEvent = !current.doc.webhooks?.[type] && sandbox.doc.webhooks?.[type] !== undefined;
        const problems = ownEvent ? validateDelivery('sandbox', sandbox, delivery) : validateDelivery(CURRENT_VERSION, current, delivery);
        collector.record(
          { document: CURRENT_VERSION, operation: `webhook ${type}`, check: 'event schema' },
          problems.length ? { message: problems.join('\n'), response: { status: 0, excerpt: excerpt(delivery.body) } } : undefined,
        );
      }
      collector.record(
        { document: CURRENT_VERSION, check: 'webhooks: every fired event delivered' },
        arrived < firedEvents
          ? { message: `only ${arrived} of ${firedEvents} fired events arrived within ${ctx.options.webhookWaitSeconds} s (--webhook-wait)` }
          : undefined,
      );
      collector.note(CURRENT_VERSION, `webhooks: ${arrived} events delivered (${firedEvents} fired, the rest sent by state changes)`);
    }
  } finally {
    await Promise.all([...proxies.values()].map((proxy) => proxy.stop()));
    await receiver.close();
  }
  outcome.testsuites = collector.testsuites();
  return outcome;
}
