// `Service-Signature: t=<unix seconds>,v1=<hex>[,v1=<hex>...]`: one lowercase-hex
// HMAC-SHA256 of "<t>.<raw body>" per signing secret that has not expired. Receivers verify
// with the client's `verifyWebhook`.
import { createHmac } from 'node:crypto';

export const SIGNATURE_HEADER = 'Service-Signature';

const hmac = (secret: string, timestamp: number, body: string): string => createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');

export function signBody(body: string, secrets: readonly string[], timestamp: number): string {
  return [`t=${timestamp}`, ...secrets.map((secret) => `v1=${hmac(secret, timestamp, body)}`)].join(',');
}
