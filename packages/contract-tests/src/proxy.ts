// Suite 1: the server behind Prism's validation proxy (one per document, `--errors`), driven by the scripted client
// journey of each version. Prism reports what breaks the description in the `sl-violations` header of the answer
// (and, with --errors, turns the answer into an error); every reported violation fails the suite.

import { createClient, createSandboxClient, type Version } from '@aggregation/client';
import { type Running, startValidationProxy } from '@aggregation/mock';
import { ContractValidator, type DocumentName, loadBundle, operationsOf } from '@aggregation/openapi/contract';
import { CURRENT_VERSION, DOCUMENT_NAMES, VERSIONS } from '@aggregation/openapi/versions';
import { eventTypes, runJourney } from './journey.ts';
import { count, newResult, type SuiteResult } from './report.ts';
import type { Target } from './target.ts';
import { startWebhookReceiver, validateDelivery, waitForDeliveries } from './webhook-receiver.ts';

type Exchange = { document: DocumentName; method: string; path: string; status: number; violations: { severity: string; message: string }[] };

/** A fetch that records each exchange with the violations the proxy reported for it. */
function recordingFetch(document: DocumentName, exchanges: Exchange[]) {
  return async (request: Request): Promise<Response> => {
    const response = await fetch(request);
    const header = response.headers.get('sl-violations');
    const violations = header ? (JSON.parse(header) as { severity: string; message: string; location?: string[] }[]) : [];
    exchanges.push({
      document,
      method: request.method,
      path: new URL(request.url).pathname,
      status: response.status,
      violations: violations.map((v) => ({ severity: v.severity, message: `${v.location?.join('.') ?? ''}: ${v.message}` })),
    });
    return response;
  };
}

export async function runProxySuite(target: Target): Promise<SuiteResult> {
  const result = newResult("Server under Prism's validation proxy (--errors), scripted client journey");
  if (!target.sandbox) {
    result.skipped.push('the journey enrolls sandbox users, and this server has no sandbox control API');
    return result;
  }
  const documents = DOCUMENT_NAMES;
  const proxies = new Map<DocumentName, Running>();
  const receiver = await startWebhookReceiver();
  const exchanges: Exchange[] = [];
  try {
    for (const document of documents) proxies.set(document, await startValidationProxy({ version: document, upstream: target.baseUrl }));
    const sandboxUrl = proxies.get('sandbox')!.url;
    let firedEvents = 0;
    for (const version of VERSIONS satisfies readonly Version[]) {
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
        ...(target.local ? { webhookUrl: receiver.url } : {}),
      });
      firedEvents += eventTypes.length;
      result.lines.push(`journey ${version}: ${count(steps.count, 'step')}, ${count(steps.problems.length, 'unexpected answer')}`);
      result.problems.push(...steps.problems);
    }

    // Stopped first so that their logs are complete.
    await Promise.all([...proxies.values()].map((proxy) => proxy.stop()));
    for (const document of documents) {
      const doc = loadBundle(document);
      const validator = new ContractValidator(doc);
      const mine = exchanges.filter((e) => e.document === document);
      const covered = new Set(mine.map((e) => validator.match(e.method, e.path)?.operation.operationId).filter(Boolean));
      const operations = operationsOf(doc);
      const violations = mine.flatMap((e) => e.violations.map((v) => `${e.method} ${e.path} ${e.status}: [${v.severity}] ${v.message}`));
      // With --errors Prism also logs each answer it replaced; a violation without the header still counts.
      const logged = proxies
        .get(document)!
        .log()
        .split('\n')
        .filter((line) => /VIOLATIONS|Violation:/.test(line));
      result.lines.push(
        `${document}: ${covered.size}/${operations.length} operations, ${count(mine.length, 'request')}, ${count(violations.length, 'violation')}` +
          ` (${count(logged.length, 'answer')} replaced by the proxy)`,
      );
      const missed = operations.filter((o) => !covered.has(o.operationId)).map((o) => o.operationId);
      if (missed.length) result.problems.push(`${document}: the journey did not call ${missed.join(', ')}`);
      result.problems.push(...violations);
      if (logged.length && !violations.length) result.problems.push(...logged.map((line) => `${document} proxy log: ${line.trim()}`));
    }

    // Prism ignores `webhooks`: the delivered events are validated here, against the current version's webhooks.
    // A server elsewhere cannot be expected to reach a receiver on this machine; its webhook URL was left alone.
    if (!target.local) {
      result.skipped.push('webhook deliveries: only checked for the server started here (yours may not reach this machine)');
      return result;
    }
    const arrived = await waitForDeliveries(receiver, firedEvents, 10_000);
    const current = ContractValidator.forDocument(CURRENT_VERSION);
    const webhookProblems = receiver.deliveries.flatMap((delivery) => validateDelivery(CURRENT_VERSION, current, delivery));
    const types = new Set(receiver.deliveries.map((d) => /"type"\s*:\s*"([^"]+)"/.exec(d.body)?.[1]));
    result.lines.push(
      `webhooks: ${count(arrived, 'event')} delivered (${firedEvents} fired, the rest sent by state changes), ${types.size} types, ` +
        count(webhookProblems.length, 'violation'),
    );
    if (arrived < firedEvents) result.problems.push(`webhooks: only ${arrived} of ${firedEvents} fired events arrived within 10 s`);
    result.problems.push(...webhookProblems);
  } finally {
    await Promise.all([...proxies.values()].map((proxy) => proxy.stop()));
    await receiver.close();
  }
  return result;
}
