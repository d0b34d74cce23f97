// @aggregation/connect: the widget's types and `loadConnect`, which adds the sandbox's /connect/connect.js to the page
// once and resolves to `window.AggregationConnect`.
import { SCRIPT_PATH } from './protocol.ts';
import type { AggregationConnect, ConnectErrorCode } from './types.ts';

export type * from './types.ts';

declare global {
  interface Window {
    /** Defined by the sandbox's /connect/connect.js. */
    AggregationConnect?: AggregationConnect;
  }
}

/** Why `loadConnect` could not load the script: `network.unreachable`, `widget.unavailable` or `environment.unsupported`. */
export class ConnectLoadError extends Error {
  readonly code: ConnectErrorCode;
  constructor(code: ConnectErrorCode, message: string) {
    super(message);
    this.name = 'ConnectLoadError';
    this.code = code;
  }
}

export interface LoadConnectOptions {
  /** Where the sandbox answers, e.g. `http://localhost:3000`: the script is `<baseUrl>/connect/connect.js`. */
  baseUrl: string;
}

const loads = new Map<string, Promise<AggregationConnect>>();

/** The script's URL for `baseUrl` (which may carry a path, for a sandbox mounted under one). */
export function connectScriptUrl(baseUrl: string): string {
  return `${new URL(baseUrl).href.replace(/\/+$/, '')}${SCRIPT_PATH}`;
}

/** The reason a script element failed: a server that answered (with something else than the widget), or none. */
async function loadFailure(src: string, baseUrl: string): Promise<ConnectLoadError> {
  try {
    const answer = await fetch(src, { method: 'HEAD', mode: 'cors', credentials: 'omit', cache: 'no-store' });
    return new ConnectLoadError('widget.unavailable', `${baseUrl} answered ${answer.status} for ${SCRIPT_PATH}: it serves no enrollment widget.`);
  } catch {
    return new ConnectLoadError('network.unreachable', `The sandbox at ${baseUrl} does not answer.`);
  }
}

/**
 * Adds `<baseUrl>/connect/connect.js` to the page (once, however often it is called) and resolves to
 * `window.AggregationConnect`. Rejects with a `ConnectLoadError`; a later call tries again.
 */
export function loadConnect({ baseUrl }: LoadConnectOptions): Promise<AggregationConnect> {
  if (typeof window === 'undefined' || typeof document === 'undefined') {
    return Promise.reject(
      new ConnectLoadError('environment.unsupported', 'loadConnect runs in a browser: call it from an effect or an event handler.'),
    );
  }
  if (window.AggregationConnect) return Promise.resolve(window.AggregationConnect);
  const src = connectScriptUrl(baseUrl);
  let loading = loads.get(src);
  if (!loading) {
    loading = new Promise<AggregationConnect>((resolve, reject) => {
      const script = document.createElement('script');
      script.src = src;
      script.async = true;
      script.crossOrigin = 'anonymous';
      script.addEventListener('load', () => {
        if (window.AggregationConnect) return resolve(window.AggregationConnect);
        reject(new ConnectLoadError('widget.unavailable', `${src} did not define AggregationConnect.`));
      });
      script.addEventListener('error', () => {
        script.remove();
        loads.delete(src);
        void loadFailure(src, baseUrl).then(reject);
      });
      document.head.append(script);
    });
    loads.set(src, loading);
  }
  return loading;
}
