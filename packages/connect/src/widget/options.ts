// The options of `setup`, checked before anything loads: a wrong type or value is the embedding code's bug, so setup
// throws a TypeError naming it instead of failing later where the cause is hard to see.
import type { FrameOptions } from '../protocol.ts';
import type { ConnectOptions } from '../types.ts';

const SELECT_ACCOUNT = ['disabled', 'single', 'multiple'];
const PRODUCTS = ['balance', 'transactions', 'payments', 'verify', 'verify.instant'];
const CALLBACKS = ['onInit', 'onSuccess', 'onExit', 'onFailure', 'onEvent'] as const;
const STRINGS = ['applicationId', 'enrollmentId', 'connectToken', 'nonce', 'baseUrl'] as const;

function fail(message: string): never {
  throw new TypeError(`AggregationConnect.setup: ${message}`);
}

/** The options checked; returns what the frame needs. */
export function checkOptions(options: ConnectOptions): FrameOptions {
  if (typeof options !== 'object' || options === null) fail('options must be an object');
  for (const name of STRINGS) {
    const value = options[name];
    if (value !== undefined && (typeof value !== 'string' || value === '')) fail(`${name} must be a non-empty string`);
  }
  if (options.applicationId === undefined) fail('applicationId is required');
  if (typeof options.onSuccess !== 'function') fail('onSuccess is required and must be a function');
  for (const name of CALLBACKS) {
    if (options[name] !== undefined && typeof options[name] !== 'function') fail(`${name} must be a function`);
  }
  if (options.environment !== undefined && options.environment !== 'sandbox')
    fail(`environment must be 'sandbox' (got ${String(options.environment)})`);
  if (options.selectAccount !== undefined && !SELECT_ACCOUNT.includes(options.selectAccount))
    fail(`selectAccount must be one of ${SELECT_ACCOUNT.join(', ')}`);
  if (options.products !== undefined) {
    if (!Array.isArray(options.products) || options.products.some((product) => !PRODUCTS.includes(product)))
      fail(`products must be an array of ${PRODUCTS.join(', ')}`);
  }
  if (options.connectToken !== undefined && options.enrollmentId !== undefined) fail('connectToken and enrollmentId exclude each other');
  if (options.connectToken !== undefined && (options.products !== undefined || options.selectAccount !== undefined || options.nonce !== undefined))
    fail('connectToken approves a challenge: products, selectAccount and nonce do not apply');
  if (options.enrollmentId !== undefined && (options.products !== undefined || options.selectAccount !== undefined))
    fail('enrollmentId reconnects an enrollment: products and selectAccount do not apply');
  const frame: FrameOptions = { applicationId: options.applicationId };
  if (options.products) frame.products = [...options.products];
  if (options.selectAccount) frame.selectAccount = options.selectAccount;
  if (options.enrollmentId) frame.enrollmentId = options.enrollmentId;
  if (options.connectToken) frame.connectToken = options.connectToken;
  if (options.nonce) frame.nonce = options.nonce;
  return frame;
}
