// Bundled for the browser: the client's runtime-neutral entry, fetch and Web Crypto only.
import * as sdk from '@aggregation/client';
import { run } from './run.mjs';

globalThis.consumerRun = (input) => run(sdk, input);
