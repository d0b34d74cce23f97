// The frame at /connect/: a modal dialog (WAI-ARIA's dialog pattern: labelled by its step's heading, focus kept
// inside, Escape and the close button leave) that runs one Flow per `open` from the page. It talks only to the origin
// its URL names, which the server also sets as the only ancestor allowed to frame it.
import { envelope, type FrameMessage, type FrameOptions, type HostMessage, isChannel, isWebOrigin, openEnvelope } from '../../protocol.ts';
import { tabbable } from './dom.ts';
import { Flow } from './flow.ts';
import { TITLE_ID, type View } from './views.ts';

const params = new URLSearchParams(location.search);
const hostOrigin = params.get('origin');
const channel = params.get('channel');

const dialog = document.getElementById('dialog')!;
const content = document.getElementById('content')!;
const backButton = document.getElementById('back') as HTMLButtonElement;
const closeButton = document.getElementById('close') as HTMLButtonElement;

function standalone(): void {
  document.body.classList.add('standalone');
  document.getElementById('standalone')!.hidden = false;
}

/** The options as the page sent them, kept only when each has the type `setup` checked. */
function readOptions(value: unknown): FrameOptions | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const given = value as Record<string, unknown>;
  const text = (name: string) => (typeof given[name] === 'string' && given[name] !== '' ? (given[name] as string) : undefined);
  const applicationId = text('applicationId');
  if (!applicationId) return undefined;
  const options: FrameOptions = { applicationId };
  const products = given.products;
  if (Array.isArray(products) && products.every((product) => typeof product === 'string')) options.products = products as FrameOptions['products'];
  for (const name of ['selectAccount', 'enrollmentId', 'connectToken', 'nonce'] as const) {
    const found = text(name);
    if (found) (options as unknown as Record<string, string>)[name] = found;
  }
  return options;
}

function embedded(origin: string, channelId: string): void {
  let flow: Flow | undefined;
  let back: (() => void) | undefined;
  const post = (message: FrameMessage) => window.parent.postMessage(envelope(channelId, message), origin);

  const close = () => {
    flow = undefined;
    document.body.classList.remove('open');
    content.replaceChildren();
  };

  const frameDialog = {
    show(view: View, onBack?: () => void) {
      content.replaceChildren(view.content);
      back = onBack;
      backButton.hidden = !onBack;
      dialog.setAttribute('aria-labelledby', TITLE_ID);
      view.focus.focus();
    },
    post(message: FrameMessage) {
      post(message);
      if (message.type === 'success' || message.type === 'exit') close();
    },
    close() {
      close();
      post({ type: 'close' });
    },
  };

  backButton.addEventListener('click', () => back?.());
  closeButton.addEventListener('click', () => flow?.dismiss());
  document.addEventListener('keydown', (event) => {
    if (!flow) return;
    if (event.key === 'Escape') {
      event.preventDefault();
      flow.dismiss();
      return;
    }
    if (event.key !== 'Tab') return;
    // Focus stays in the dialog: past the last element it wraps to the first, and back.
    const items = tabbable(dialog);
    const first = items[0];
    const last = items.at(-1);
    if (!first || !last) return event.preventDefault();
    const active = document.activeElement;
    const outside = !active || !dialog.contains(active);
    if (event.shiftKey && (outside || active === first)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (outside || active === last)) {
      event.preventDefault();
      first.focus();
    }
  });

  window.addEventListener('message', (event) => {
    if (event.source !== window.parent || event.origin !== origin) return;
    const message = openEnvelope<HostMessage>(event.data, channelId);
    if (message?.type !== 'open' || flow) return;
    const options = readOptions(message.options);
    if (!options) return;
    document.body.classList.add('open');
    flow = new Flow(frameDialog, options);
    void flow.start();
  });
  post({ type: 'ready' });
}

if (window.parent !== window && isWebOrigin(hostOrigin) && isChannel(channel)) embedded(hostOrigin, channel);
else standalone();
