export { skipWhenMissing } from './missing.ts';
export { chromiumArgs, findChromium } from './chromium.ts';
