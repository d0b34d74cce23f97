// `useConnect(options)`: the widget in a React component. It loads the script (once per page), sets the widget up
// with the options, and returns `open`, whether it is `ready`, and the last `error`. The callbacks may change on every
// render without setting the widget up again; any other option changing sets it up anew.
import { useCallback, useEffect, useRef, useState } from 'react';
import { ConnectLoadError, loadConnect } from './index.ts';
import type { ConnectError, ConnectHandler, ConnectOptions } from './types.ts';

/** The options of `setup`, with `baseUrl` required: it is where the script is loaded from. */
export type UseConnectOptions = ConnectOptions & { baseUrl: string };

export interface UseConnect {
  /** Shows the widget; before it is `ready`, it shows as soon as it is. */
  open: () => void;
  /** The widget is loaded (`onInit` was called). */
  ready: boolean;
  /** What the last failure reported (loading the script, or `onFailure`); undefined after a successful setup. */
  error: ConnectError | undefined;
}

export function useConnect(options: UseConnectOptions): UseConnect {
  const latest = useRef(options);
  latest.current = options;
  const [handler, setHandler] = useState<ConnectHandler>();
  const [ready, setReady] = useState(false);
  const [error, setError] = useState<ConnectError>();
  const { baseUrl, applicationId, environment, products, selectAccount, enrollmentId, connectToken, nonce } = options;
  // What the widget is set up with, apart from the callbacks (read through `latest`, so they may change freely).
  const setupKey = JSON.stringify([baseUrl, applicationId, environment, products, selectAccount, enrollmentId, connectToken, nonce]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: setupKey stands for the options it is made of; the callbacks are read from latest.
  useEffect(() => {
    let cancelled = false;
    let created: ConnectHandler | undefined;
    setReady(false);
    setError(undefined);
    const fail = (failure: ConnectError) => {
      setError(failure);
      latest.current.onFailure?.({ error: failure });
    };
    loadConnect({ baseUrl: latest.current.baseUrl }).then(
      (connect) => {
        if (cancelled) return;
        const { onInit: _init, onSuccess: _success, onExit: _exit, onFailure: _failure, onEvent: _event, ...settings } = latest.current;
        created = connect.setup({
          ...settings,
          onInit: () => {
            setReady(true);
            latest.current.onInit?.();
          },
          onSuccess: (result: never) => (latest.current.onSuccess as (result: unknown) => void)(result),
          onExit: (exit) => latest.current.onExit?.(exit),
          onFailure: ({ error: failure }) => fail(failure),
          onEvent: (...args) => latest.current.onEvent?.(...args),
        } as ConnectOptions);
        setHandler(created);
      },
      (failure: unknown) => {
        if (cancelled) return;
        fail(
          failure instanceof ConnectLoadError
            ? { code: failure.code, message: failure.message }
            : { code: 'widget.unavailable', message: failure instanceof Error ? failure.message : String(failure) },
        );
      },
    );
    return () => {
      cancelled = true;
      created?.destroy();
      setHandler(undefined);
      setReady(false);
    };
  }, [setupKey]);

  const pending = useRef(false);
  useEffect(() => {
    if (handler && pending.current) {
      pending.current = false;
      handler.open();
    }
  }, [handler]);

  const open = useCallback(() => {
    if (handler) handler.open();
    else pending.current = true;
  }, [handler]);

  return { open, ready, error };
}
