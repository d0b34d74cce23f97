import { existsSync } from 'node:fs';

/** Where Chromium is (CHROMIUM_PATH, else Debian's `chromium`), or undefined; launch it headless with these args. */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return [env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => path && existsSync(path));
}

export const chromiumArgs = ['--no-sandbox', '--disable-background-networking'];
