// Applications: each developer's app in the sandbox. An application owns its enrollments, its
// webhook URL and signing secrets, its events and deliveries, and its default version; tokens
// of one application never see another's. Local use needs none of this: enrollments made
// without an application key belong to the default application.
import { type ApplicationRow, DEFAULT_APPLICATION_ID } from '../storage/store.ts';
import { isoTime } from './clock.ts';
import { type Deps, transact } from './context.ts';
import { ApiError, forbidden } from './errors.ts';
import { hashToken, newApplicationKey, newId } from './ids.ts';
import { newSigningKey } from './signing-keys.ts';

/** How long after an upgrade the previous version can be restored (sandbox clock). */
export const VERSION_ROLLBACK_MS = 72 * 3_600_000;

/** What the enrollment widget calls an application that was given no name. */
export const DEFAULT_APPLICATION_NAME = 'Sandbox application';

export const applicationName = (application: ApplicationRow): string => application.name ?? DEFAULT_APPLICATION_NAME;

export interface CreatedApplication {
  key: string;
  application: ApplicationRow;
}

export async function createApplication(
  deps: Deps,
  input: { version: string; clientAddress: string | null; name?: string | undefined },
): Promise<CreatedApplication> {
  const key = newApplicationKey();
  const application: ApplicationRow = {
    id: newId('app'),
    key_hash: hashToken(key),
    webhook_url: null,
    version: input.version,
    previous_version: null,
    version_changed_at: null,
    client_address: input.clientAddress,
    name: input.name ?? null,
    created_at: deps.now(),
  };
  // Its signing key is made with it.
  await transact(deps, async (tx) => {
    await tx.applications.insert(application);
    await tx.applications.insertSigningKey(newSigningKey(application.id, application.created_at));
  });
  return { key, application };
}

export async function applicationById(deps: Deps, id: string): Promise<ApplicationRow> {
  const application = await deps.store.applications.get(id);
  if (!application) throw new Error(`application ${id} is missing`);
  return application;
}

/** The application an application key names; 403 when none does. */
export async function applicationForKey(deps: Deps, key: string): Promise<ApplicationRow> {
  const application = await deps.store.applications.getByKeyHash(hashToken(key));
  if (!application) throw forbidden('The application key is not valid.');
  return application;
}

export const isDefaultApplication = (id: string): boolean => id === DEFAULT_APPLICATION_ID;

/** The version a request without `Service-Version`, and every event, of the application uses. */
export const versionOf = (application: ApplicationRow, serverDefault: string): string => application.version ?? serverDefault;

/** Until when the version the last upgrade left can be restored; null when there is none. */
export const rollbackUntil = (application: ApplicationRow): number | null =>
  application.previous_version === null || application.version_changed_at === null ? null : application.version_changed_at + VERSION_ROLLBACK_MS;

/**
 * Moves the application's default version to a newer one for good; the version it leaves can
 * be restored for 72 hours. Asking for the version in force changes nothing.
 */
export async function upgradeApplicationVersion(
  deps: Deps,
  id: string,
  input: { version: string; versions: readonly string[]; serverDefault: string; now: number },
): Promise<ApplicationRow> {
  return transact(deps, async (tx) => {
    const application = (await tx.applications.getForUpdate(id))!;
    const current = versionOf(application, input.serverDefault);
    if (input.version === current) return application;
    // Versions are listed newest first.
    if (input.versions.indexOf(input.version) > input.versions.indexOf(current)) {
      throw new ApiError(
        422,
        'application_version.downgrade',
        `${input.version} is older than the application's version ${current}: an upgrade only moves forward (roll back within 72 hours of an upgrade instead).`,
        { version: [`must be newer than ${current}`] },
      );
    }
    const patch = { version: input.version, previous_version: current, version_changed_at: input.now };
    await tx.applications.update(id, patch);
    return { ...application, ...patch };
  });
}

/** Restores the version the last upgrade left, within 72 hours of it (sandbox clock). */
export async function rollBackApplicationVersion(deps: Deps, id: string, now: number): Promise<ApplicationRow> {
  return transact(deps, async (tx) => {
    const application = (await tx.applications.getForUpdate(id))!;
    const until = rollbackUntil(application);
    if (until === null) {
      throw new ApiError(422, 'application_version.rollback_unavailable', 'The application has no upgrade to roll back.');
    }
    if (now >= until) {
      throw new ApiError(
        422,
        'application_version.rollback_expired',
        `The rollback window closed at ${isoTime(until)}, 72 hours after the upgrade; the version stays ${application.version}.`,
      );
    }
    const patch = { version: application.previous_version, previous_version: null, version_changed_at: null };
    await tx.applications.update(id, patch);
    return { ...application, ...patch };
  });
}
