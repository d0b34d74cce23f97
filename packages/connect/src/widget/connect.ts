// connect.js: the script a web app embeds. `AggregationConnect.setup(options)` loads the widget's frame from the
// sandbox, hidden, and `open()` shows it over the page as a modal dialog: the rest of the page is inert and does not
// scroll while it is open, and focus returns where it was when it closes. The frame does the steps and talks to the
// sandbox; this script only carries its messages to the callbacks.
import { envelope, FRAME_PATH, type FrameMessage, type FrameOptions, frameQuery, type HostMessage, openEnvelope, SCRIPT_PATH } from '../protocol.ts';
import type { AggregationConnect, ConnectError, ConnectHandler, ConnectOptions } from '../types.ts';
import { checkOptions } from './options.ts';

declare const __CONNECT_VERSION__: string;

// Read while the script runs: later, document.currentScript is another script or none.
const scriptUrl = (document.currentScript as HTMLScriptElement | null)?.src;

/** The base the script came from: `<base>/connect/connect.js` gives `<base>`. */
function defaultBaseUrl(): string {
  if (scriptUrl?.endsWith(SCRIPT_PATH)) return scriptUrl.slice(0, -SCRIPT_PATH.length);
  return scriptUrl ? new URL(scriptUrl).origin : location.origin;
}

function baseUrlOf(option: string | undefined): string {
  const text = option ?? defaultBaseUrl();
  let url: URL;
  try {
    url = new URL(text, location.href);
  } catch {
    throw new TypeError(`AggregationConnect.setup: baseUrl is not a URL: ${text}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`AggregationConnect.setup: baseUrl must be http or https: ${text}`);
  return url.href.replace(/\/+$/, '');
}

/** Calls a callback of the embedding page; what it throws is reported without breaking the widget. */
function call<Args extends unknown[]>(callback: ((...args: Args) => void) | undefined, ...args: Args): void {
  if (!callback) return;
  try {
    callback(...args);
  } catch (error) {
    if (typeof reportError === 'function') reportError(error);
    else
      setTimeout(() => {
        throw error;
      });
  }
}

/** The frame over the whole viewport. Set through CSSOM: a page whose CSP forbids inline styles still allows it. */
const FRAME_STYLE: Record<string, string> = {
  position: 'fixed',
  inset: '0',
  width: '100%',
  height: '100%',
  border: '0',
  margin: '0',
  padding: '0',
  'z-index': '2147483647',
  background: 'transparent',
  // The frame's canvas stays transparent only when its color scheme is the element's.
  'color-scheme': 'normal',
  display: 'none',
};

/** The page as it was before the dialog opened, restored when it closes. */
interface PageState {
  focused: Element | null;
  inert: HTMLElement[];
  overflow: string;
}

function makeModal(frame: HTMLIFrameElement): PageState {
  const state: PageState = { focused: document.activeElement, inert: [], overflow: document.documentElement.style.overflow };
  for (const element of Array.from(document.body.children)) {
    if (element === frame || !(element instanceof HTMLElement) || element.inert) continue;
    element.inert = true;
    state.inert.push(element);
  }
  document.documentElement.style.overflow = 'hidden';
  return state;
}

function restorePage(state: PageState): void {
  for (const element of state.inert) element.inert = false;
  document.documentElement.style.overflow = state.overflow;
  if (state.focused instanceof HTMLElement || state.focused instanceof SVGElement) state.focused.focus({ preventScroll: true });
}

function setup(options: ConnectOptions): ConnectHandler {
  const frameOptions: FrameOptions = checkOptions(options);
  const baseUrl = baseUrlOf(options.baseUrl);
  const frameOrigin = new URL(baseUrl).origin;
  const channel = crypto.randomUUID();
  let frame: HTMLIFrameElement | undefined;
  let status: 'loading' | 'ready' | 'failed' | 'destroyed' = 'loading';
  let wanted = false;
  let page: PageState | undefined;

  const fail = (error: ConnectError) => {
    status = 'failed';
    frame?.remove();
    frame = undefined;
    wanted = false;
    call(options.onFailure, { error });
  };

  const show = () => {
    if (!frame || page) return;
    page = makeModal(frame);
    frame.style.setProperty('display', 'block', 'important');
    frame.focus();
    const message: HostMessage = { type: 'open', options: frameOptions };
    frame.contentWindow?.postMessage(envelope(channel, message), frameOrigin);
  };

  const hide = () => {
    wanted = false;
    if (!frame || !page) return;
    frame.style.setProperty('display', 'none', 'important');
    const state = page;
    page = undefined;
    restorePage(state);
  };

  const onMessage = (event: MessageEvent) => {
    if (!frame || event.source !== frame.contentWindow || event.origin !== frameOrigin) return;
    const message = openEnvelope<FrameMessage>(event.data, channel);
    if (!message) return;
    switch (message.type) {
      case 'ready':
        if (status !== 'loading') return;
        status = 'ready';
        call(options.onInit);
        if (wanted) show();
        return;
      case 'event':
        call(options.onEvent as ((...args: unknown[]) => void) | undefined, ...message.args);
        return;
      case 'success':
        hide();
        call(options.onSuccess as (result: unknown) => void, message.result);
        return;
      case 'exit':
        hide();
        call(options.onExit, message.exit);
        return;
      case 'failure':
        // The frame shows what failed until the user closes it ('close').
        call(options.onFailure, message.failure);
        return;
      case 'close':
        hide();
        return;
    }
  };

  const load = async () => {
    status = 'loading';
    if (location.protocol !== 'http:' && location.protocol !== 'https:') {
      fail({ code: 'origin.unsupported', message: `The widget needs a page served over http or https; this one is ${location.protocol}` });
      return;
    }
    // The frame's load event cannot tell an error page from the widget: ask the server first.
    let answer: Response;
    try {
      answer = await fetch(`${baseUrl}${SCRIPT_PATH}`, { method: 'HEAD', mode: 'cors', credentials: 'omit', cache: 'no-store' });
    } catch {
      if (status === 'loading') fail({ code: 'network.unreachable', message: `The sandbox at ${baseUrl} does not answer.` });
      return;
    }
    if (status !== 'loading') return;
    if (!answer.ok) {
      fail({ code: 'widget.unavailable', message: `${baseUrl} answered ${answer.status} for ${SCRIPT_PATH}: it serves no enrollment widget.` });
      return;
    }
    frame = document.createElement('iframe');
    frame.title = 'Connect your bank account';
    for (const [property, value] of Object.entries(FRAME_STYLE)) frame.style.setProperty(property, value, 'important');
    frame.src = `${baseUrl}${FRAME_PATH}${frameQuery(location.origin, channel)}`;
    document.body.append(frame);
  };

  window.addEventListener('message', onMessage);
  void load();

  return {
    open() {
      if (status === 'destroyed') throw new Error('AggregationConnect: open() after destroy()');
      wanted = true;
      if (status === 'ready') show();
      else if (status === 'failed') void load();
    },
    destroy() {
      if (status === 'destroyed') return;
      hide();
      status = 'destroyed';
      window.removeEventListener('message', onMessage);
      frame?.remove();
      frame = undefined;
    },
  };
}

const connect: AggregationConnect = { setup, version: __CONNECT_VERSION__ };
// A second copy of the script on the page keeps the first one's object.
(window as Window & { AggregationConnect?: AggregationConnect }).AggregationConnect ??= Object.freeze(connect);
