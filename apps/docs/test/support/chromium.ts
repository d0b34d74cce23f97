// Headless Chromium from the system (Debian's `chromium`), driven by playwright-core. Where it is missing the
// browser tests are skipped with a message, except in CI (CI=true), where they fail.
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** `false` when Chromium is there; otherwise why the browser tests cannot run. */
export function chromiumMissing(): string | false {
  if (existsSync(chromiumPath)) return false;
  return `Chromium not found at ${chromiumPath}: install Debian's chromium (apt-get install -y chromium) or set CHROMIUM_PATH`;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    // Root in a container needs --no-sandbox; the others keep Chromium from calling home on a closed network.
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}
