// npm records only the optional platform packages it could fetch. The registry mirror that this project's machines
// reach serves just the Linux builds of turbo and Biome, so the lock would name their macOS, Windows, Android and
// musl builds as dependencies without entries, and `npm ci` refuses a lock like that. This adds platform-gated entries for the
// missing ones (os/cpu from their names); npm skips them on other platforms and resolves them where they apply.
// Run after `npm install` changes package-lock.json: `node scripts/complete-lockfile.ts`.
import { readFileSync, writeFileSync } from 'node:fs';

type Entry = { version?: string; dev?: boolean; optionalDependencies?: Record<string, string>; [key: string]: unknown };
const lockPath = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(lockPath, 'utf8')) as { packages: Record<string, Entry> };

const platforms: [RegExp, string][] = [
  [/android/, 'android'],
  [/darwin/, 'darwin'],
  [/windows|win32/, 'win32'],
  [/linux/, 'linux'],
];
const cpus: [RegExp, string][] = [
  [/arm64/, 'arm64'],
  [/64/, 'x64'],
];

let added = 0;
for (const [location, entry] of Object.entries(lock.packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const key = `node_modules/${name}`;
    if (lock.packages[key] || lock.packages[`${location}/${key}`]) continue;
    const os = platforms.find(([pattern]) => pattern.test(name))?.[1];
    const cpu = cpus.find(([pattern]) => pattern.test(name))?.[1];
    if (!os || !cpu) throw new Error(`${name} is missing from the lock and its platform cannot be read from its name`);
    // A musl build (Alpine) is told apart from the glibc one by libc, as npm records it.
    const libc = /musl/.test(name) ? { libc: ['musl'] } : {};
    lock.packages[key] = { version, cpu: [cpu], dev: entry.dev, ...libc, optional: true, os: [os] };
    added++;
  }
}
lock.packages = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
console.log(added ? `added ${added} platform-gated optional entries` : 'the lock already names every optional package');
