// Type-checked against the installed declarations: a wrong field or a wrong argument must fail `tsc`.
import { type Account, createClient, verifyWebhook } from '@aggregation/client';
import { createClient as createNodeClient } from '@aggregation/client/node';
import { type ConnectEnrollment, loadConnect } from '@aggregation/connect';
import type { components } from '@aggregation/types/2020-10-12';

const client = createClient({ token: 'test_token_example', baseUrl: 'http://127.0.0.1:3000' });
const accounts: Account[] = await client.accounts.list();
const generated: components['schemas']['Account'] | undefined = accounts[0];
console.log(generated?.institution.name);
// @ts-expect-error the description has no such field
console.log(accounts[0]?.no_such_field);
// @ts-expect-error a token is required
createClient({ baseUrl: 'http://127.0.0.1:3000' });
createNodeClient({ token: 'token_live', cert: 'cert', key: 'key' });
const event = await verifyWebhook('{}', 't=1,v1=00', 'whsec_example');
if (event.type === 'transactions.processed') console.log(event.payload.transactions.length);

// The widget's package: its options and callbacks are typed, and a wrong value fails.

const AggregationConnect = await loadConnect({ baseUrl: 'http://127.0.0.1:3000' });
AggregationConnect.setup({ applicationId: 'app_default', onSuccess: (enrollment: ConnectEnrollment) => console.log(enrollment.accessToken) });
AggregationConnect.setup({
  applicationId: 'app_default',
  onSuccess: () => {},
  onEvent: (name, data) => {
    if (name === 'error') console.log(data.error.code);
  },
  // @ts-expect-error selectAccount is disabled, single or multiple
  selectAccount: 'all',
});
