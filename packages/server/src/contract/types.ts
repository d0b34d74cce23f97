// The contract's generated types: the core speaks 2020-10-12; the sandbox control API has its
// own document. Handlers are typed from `operations`, so a shape the contract does not allow
// fails the type check.

export type { components as v20190701Components } from '@aggregation/types/2019-07-01';
export type { components, operations, webhooks } from '@aggregation/types/2020-10-12';
export type { components as sandboxComponents, operations as sandboxOperations } from '@aggregation/types/sandbox';
