// Bundled for the browser from the installed @aggregation/connect: the sandbox's enrollment widget, loaded as an
// integrator's app loads it; resolves to what onSuccess received.
import { loadConnect } from '@aggregation/connect';

globalThis.consumerConnect = async ({ baseUrl }) => {
  const AggregationConnect = await loadConnect({ baseUrl });
  return new Promise((resolve, reject) => {
    const connect = AggregationConnect.setup({
      applicationId: 'app_default',
      onSuccess: resolve,
      onExit: () => reject(new Error('the widget was closed')),
      onFailure: ({ error }) => reject(new Error(`${error.code}: ${error.message}`)),
    });
    connect.open();
  });
};
