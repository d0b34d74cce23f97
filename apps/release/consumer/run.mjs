// What an integrator does first, the same from ESM, from require() and in a browser: list the accounts of a
// sandbox user, verify a signed webhook, and see a forged one refused.
export async function run(sdk, { baseUrl, token, body, header, secret, now }) {
  const client = sdk.createClient({ token, baseUrl });
  const accounts = await client.accounts.list();
  const event = await sdk.verifyWebhook(body, header, secret, { now });
  let forged = 'accepted';
  try {
    await sdk.verifyWebhook(body.replace('"payload":{}', '"payload":{"forged":true}'), header, secret, { now });
  } catch (error) {
    forged = error instanceof sdk.WebhookVerificationError ? error.reason : String(error);
  }
  return { accounts: accounts.map((account) => account.type), event: event.type, forged };
}
