export { chromiumArgs, findChromium } from './chromium.ts';
export { skipWhenMissing } from './missing.ts';
export { which } from './which.ts';
