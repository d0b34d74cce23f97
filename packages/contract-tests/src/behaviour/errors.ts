// errors: every error body the server sent during the whole run, in any suite, carries an `error.code` that its
// document declares (`x-error-codes`, through @aggregation/openapi's reading of it), with the status declared for it.
import { loadBundle } from '@aggregation/openapi/contract';
import { declaredErrorCode, errorCodesOf } from '@aggregation/openapi/error-codes';
import { documentOf, validatorOf } from '../coverage.ts';
import type { Exchange } from '../recorder.ts';
import type { Collector } from '../report/collect.ts';
import { curlOf, excerpt } from '../report/curl.ts';
import type { Failure } from '../report/types.ts';
import { at } from './checks.ts';

const declaredCodesRule = (document: string) => `${document} #/x-error-codes: the error codes the description declares, each with its status`;

/** A failure about an exchange of the run: its request (the token left out when it was given), answer and curl line. */
export function exchangeFailure(exchange: Exchange, message: string, rule: string, secretToken: string | undefined): Failure {
  const secret = secretToken !== undefined && exchange.requestHeaders.authorization === `Basic ${btoa(`${secretToken}:`)}`;
  const headers = Object.fromEntries(Object.entries(exchange.requestHeaders).filter(([name]) => !(secret && name === 'authorization')));
  const request = { method: exchange.method, url: exchange.url, headers, ...(exchange.requestBody ? { body: exchange.requestBody } : {}) };
  return {
    message,
    request,
    response: { status: exchange.status, contentType: exchange.responseHeaders['content-type'] ?? '', excerpt: excerpt(exchange.answerBody ?? '') },
    curl: curlOf(request, secret ? 'AGGREGATION_TOKEN' : undefined),
    rule,
  };
}

export function checkErrorBodies(exchanges: Exchange[], collector: Collector, secretToken: string | undefined): number {
  let checked = 0;
  for (const exchange of exchanges) {
    if (exchange.status < 400 || exchange.answerBody === undefined) continue;
    const document = documentOf(exchange);
    const matched = validatorOf(document).match(exchange.method, exchange.path);
    const operation = matched ? `${exchange.method} ${matched.path}` : null;
    let code: unknown;
    try {
      code = (JSON.parse(exchange.answerBody) as { error?: { code?: unknown } }).error?.code;
    } catch {
      code = undefined;
    }
    checked++;
    const declared = typeof code === 'string' ? declaredErrorCode(errorCodesOf(loadBundle(document)), code) : undefined;
    collector.record(
      at(document, operation, 'errors: the code is one the description declares'),
      declared
        ? undefined
        : exchangeFailure(
            exchange,
            typeof code === 'string' ? `error code ${code} is not declared` : 'the error body has no error.code',
            declaredCodesRule(document),
            secretToken,
          ),
    );
    if (declared) {
      collector.record(
        at(document, operation, "errors: the status is the code's declared status"),
        declared.status === exchange.status
          ? undefined
          : exchangeFailure(
              exchange,
              `error code ${code} came with status ${exchange.status}; it is declared with ${declared.status}`,
              declaredCodesRule(document),
              secretToken,
            ),
      );
    }
  }
  return checked;
}
