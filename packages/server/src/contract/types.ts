// The contract's generated types: the core speaks the current version (whichever the description says it is);
// the sandbox control API has its own document. Handlers are typed from `operations`, so a shape the contract
// does not allow fails the type check.
import type { ComponentsByVersion, CurrentVersion, OperationsByVersion, WebhooksByVersion } from '@aggregation/types/versions';

export type components = ComponentsByVersion[CurrentVersion];
export type operations = OperationsByVersion[CurrentVersion];
export type webhooks = WebhooksByVersion[CurrentVersion];
export type { components as v20190701Components } from '@aggregation/types/2019-07-01';
export type { components as sandboxComponents, operations as sandboxOperations, webhooks as sandboxWebhooks } from '@aggregation/types/sandbox';
