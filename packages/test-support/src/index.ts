export { chromiumArgs, findChromium } from './chromium.ts';
export { skipWhenMissing } from './missing.ts';
export { machineNode, which } from './which.ts';
