// Every response carries a Request-Id, which error bodies repeat as `error.request_id` and the
// request log shows, so that one failed call can be found in the server's log. Ids are a random
// per-process prefix plus a counter: unique across the processes sharing a database, and cheap
// enough for the read cache's replay path (no random bytes per request).
import { randomString } from '../domain/ids.ts';

export const REQUEST_ID_HEADER = 'Request-Id';

const processPrefix = `req_${randomString(10)}`;
let counter = 0;

export const newRequestId = (): string => `${processPrefix}${(++counter).toString(36).padStart(6, '0')}`;
