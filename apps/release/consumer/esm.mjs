import * as sdk from '@aggregation/client';
import { run } from './run.mjs';

console.log(JSON.stringify(await run(sdk, JSON.parse(process.env.CONSUMER_INPUT))));
