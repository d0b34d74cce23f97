const sdk = require('@aggregation/client');

import('./run.mjs').then(({ run }) => run(sdk, JSON.parse(process.env.CONSUMER_INPUT))).then((result) => console.log(JSON.stringify(result)));
