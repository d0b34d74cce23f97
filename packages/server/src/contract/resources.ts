// The current version's resource shapes, by the names the handlers, presenters and version
// changes use.
import type { components } from './types.ts';

type Schemas = components['schemas'];
export type Account = Schemas['Account'];
export type AccountDetails = Schemas['AccountDetails'];
export type AccountBalances = Schemas['AccountBalances'];
export type Transaction = Schemas['Transaction'];
export type Payee = Schemas['Payee'];
export type Payment = Schemas['Payment'];
