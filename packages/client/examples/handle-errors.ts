import {
  createClient,
  disconnectReason,
  isAccountClosed,
  isEnrollmentDisconnected,
  isVerificationExpired,
  isVerificationPending,
} from '@aggregation/client';

const client = createClient({ token: process.env.AGGREGATION_TOKEN!, baseUrl: process.env.AGGREGATION_BASE_URL });
const accountId = process.env.ACCOUNT_ID!;

try {
  const details = await client.accounts.details(accountId);
  console.log(details.account_number, details.routing_numbers.ach);
} catch (error) {
  // error.reason: account.closed[.<reason>]
  if (isAccountClosed(error)) console.log('closed', error.reason);
  else if (isEnrollmentDisconnected(error)) console.log('reconnect with the widget', disconnectReason(error));
  else if (isVerificationPending(error)) console.log('microdeposit not seen yet');
  else if (isVerificationExpired(error)) console.log('microdeposit verification expired');
  else throw error;
}
