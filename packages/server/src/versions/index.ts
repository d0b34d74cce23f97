// The version registry: the change modules of the older versions, and how to bring a current-shape
// resource or event payload down to a requested version. Which versions exist, and which is current,
// is generated from the description (@aggregation/openapi/versions).

import { CURRENT_VERSION, VERSIONS, type Version } from '@aggregation/openapi/versions';
import { change as v20190701 } from './2019-07-01.ts';
import type { ChangeContext, Resource, VersionChange } from './change.ts';

export { CURRENT_VERSION, VERSIONS, type Version };

/** Newest first. Adding a version means adding its module here. */
const changes: VersionChange[] = [v20190701];

// Each older version of the description needs its change module, in the same order: fail at start-up, not on a request.
const older = VERSIONS.filter((version) => version !== CURRENT_VERSION);
if (older.join() !== changes.map((change) => change.version).join()) {
  throw new Error(`the change modules (${changes.map((change) => change.version).join(', ')}) must be those of ${older.join(', ')}, newest first`);
}

export const isVersion = (value: string): value is Version => (VERSIONS as readonly string[]).includes(value);

/** The modules that lead from the current version down to `version`, in the order to apply them. */
function path(version: string): VersionChange[] {
  const index = changes.findIndex((change) => change.version === version);
  return index < 0 ? [] : changes.slice(0, index + 1);
}

export async function rewriteResource(version: string, resource: Resource, value: unknown, context: ChangeContext): Promise<unknown> {
  let out = value;
  for (const change of path(version)) {
    const rewrite = change.resources[resource];
    if (rewrite) out = await rewrite(out as never, context);
  }
  return out;
}

export async function rewriteEventPayload(version: string, type: string, payload: unknown, context: ChangeContext): Promise<unknown> {
  let out = payload;
  for (const change of path(version)) {
    const rewrite = change.events[type];
    if (rewrite) out = await rewrite(out as never, context);
  }
  return out;
}

/** Request bodies go the other way: oldest module first, up to the current shape. */
export function upgradeRequest(version: string, operationId: string, body: unknown): unknown {
  let out = body;
  for (const change of path(version).reverse()) {
    const rewrite = change.requests[operationId];
    if (rewrite) out = rewrite(out as never);
  }
  return out;
}

/** Whether the version needs anything rewritten for this resource (lets the current version skip the work). */
export const rewrites = (version: string, resource: Resource): boolean => path(version).some((change) => resource in change.resources);

export type { ChangeContext, Resource, VersionChange };
