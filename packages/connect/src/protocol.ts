// What connect.js (in the embedding page) and the frame at /connect/ (on the sandbox's origin) say to each other by
// postMessage. Each side sends to the other's origin only, and takes a message only from the other's window and origin
// and with the channel of this widget instance (two widgets on one page never hear each other).
import type {
  ConnectApproval,
  ConnectEnrollment,
  ConnectEventArgs,
  ConnectExit,
  ConnectFailure,
  ConnectProduct,
  ConnectReconnection,
  SelectAccount,
} from './types.ts';

export const MESSAGE_SOURCE = 'aggregation-connect';

/** Where the sandbox serves the widget, from its base URL. */
export const SCRIPT_PATH = '/connect/connect.js';
export const FRAME_PATH = '/connect/';

/** The options the frame needs (the callbacks stay in the page). */
export interface FrameOptions {
  applicationId: string;
  products?: ConnectProduct[];
  selectAccount?: SelectAccount;
  enrollmentId?: string;
  connectToken?: string;
  nonce?: string;
}

export type HostMessage = { type: 'open'; options: FrameOptions };

export type FrameMessage =
  | { type: 'ready' }
  | { type: 'event'; args: ConnectEventArgs }
  | { type: 'success'; result: ConnectEnrollment | ConnectReconnection | ConnectApproval }
  | { type: 'exit'; exit: ConnectExit }
  | { type: 'failure'; failure: ConnectFailure }
  /** The user closed the widget after a failure: hide the frame, no further callback. */
  | { type: 'close' };

type Envelope = { source: typeof MESSAGE_SOURCE; channel: string };

export const envelope = <Message extends { type: string }>(channel: string, message: Message): Message & Envelope => ({
  ...message,
  source: MESSAGE_SOURCE,
  channel,
});

/** The message in `data` when it is this widget's, on this channel; undefined for anything else. */
export function openEnvelope<Message extends { type: string }>(data: unknown, channel: string): Message | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const candidate = data as Partial<Envelope> & { type?: unknown };
  if (candidate.source !== MESSAGE_SOURCE || candidate.channel !== channel || typeof candidate.type !== 'string') return undefined;
  return data as Message;
}

/** The query of the frame's URL: the embedding page's origin (the only one the frame talks to) and the channel. */
export const frameQuery = (origin: string, channel: string) => `?origin=${encodeURIComponent(origin)}&channel=${encodeURIComponent(channel)}`;

/** An origin the frame may be embedded by and talk to: `http:` or `https:`, written exactly as `URL#origin` writes it. */
export function isWebOrigin(origin: string | null | undefined): origin is string {
  if (!origin) return false;
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === origin;
  } catch {
    return false;
  }
}

/** A channel: what crypto.randomUUID() makes, and nothing that could need escaping. */
export const isChannel = (channel: string | null | undefined): channel is string => typeof channel === 'string' && /^[0-9a-f-]{36}$/.test(channel);
