export { skipWhenMissing } from './missing.ts';
