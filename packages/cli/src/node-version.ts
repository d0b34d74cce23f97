// The oldest Node.js the command runs on, the same as the client's (`engines` of both packages): fetch, styleText and
// the ES modules it loads are all there from 20.19 on.
export const OLDEST_NODE = [20, 19] as const;

export function unsupportedNodeMessage(version = process.versions.node): string | undefined {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  const [oldestMajor, oldestMinor] = OLDEST_NODE;
  if (major > oldestMajor || (major === oldestMajor && minor >= oldestMinor)) return undefined;
  return `aggregation needs Node.js ${oldestMajor}.${oldestMinor} or newer; this is Node.js ${version}.`;
}
