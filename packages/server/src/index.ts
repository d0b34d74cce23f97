// Public entry points of the server package.
export { createApp, type App, type AppOptions, type WebhookOptions } from './app.ts';
export { startServer, type RunningServer, type ServerOptions, type TlsOptions } from './server.ts';
export { openStore, type StorageOptions } from './storage/index.ts';
export type { Store, Repos } from './storage/store.ts';
export { signBody, SIGNATURE_HEADER } from './webhooks/signature.ts';
export { CURRENT_VERSION, VERSIONS } from './versions/index.ts';
/** Creates an enrollment directly, e.g. a live one for tests: live enrollments have no control API. */
export { createEnrollment, type CreateEnrollmentInput, type CreatedEnrollment } from './domain/enrollments.ts';
