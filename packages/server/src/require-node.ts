// Imported first by every entry point: on a Node.js older than the server needs, stop here with a clear message.
import { unsupportedNodeMessage } from './node-version.ts';

const unsupported = unsupportedNodeMessage();
if (unsupported) throw new Error(unsupported);
