// Public entry points of the server package.
import './require-node.ts';

export { type App, type AppOptions, createApp, type WebhookOptions } from './app.ts';
/** Creates an enrollment directly, e.g. a live one for tests: live enrollments have no control API. */
export { type CreatedEnrollment, type CreateEnrollmentInput, createEnrollment } from './domain/enrollments.ts';
export { type RunningServer, type ServerOptions, startServer, type TlsOptions } from './server.ts';
export { openStore, type StorageOptions } from './storage/index.ts';
export type { Repos, Store } from './storage/store.ts';
export { CURRENT_VERSION, VERSIONS } from './versions/index.ts';
export { SIGNATURE_HEADER, signBody } from './webhooks/signature.ts';
