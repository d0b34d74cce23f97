// The server stores its data with node:sqlite, which Node.js has without a flag from version 24 on. Every entry
// point imports this first, so an older Node fails with what to do instead of a missing built-in module.
export const REQUIRED_NODE_MAJOR = 24;

export function unsupportedNodeMessage(version = process.versions.node): string | undefined {
  const major = Number(version.split('.')[0]);
  if (major >= REQUIRED_NODE_MAJOR) return undefined;
  return `@aggregation/server needs Node.js ${REQUIRED_NODE_MAJOR} or newer (it stores data with node:sqlite); this is Node.js ${version}.`;
}

export function requireNodeSqlite(): typeof import('node:sqlite') {
  const sqlite = process.getBuiltinModule('node:sqlite');
  if (!sqlite) throw new Error(unsupportedNodeMessage() ?? 'node:sqlite is not available in this Node.js.');
  return sqlite;
}
