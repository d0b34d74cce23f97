export { seriousViolations } from './axe.ts';
export { chromiumArgs, findChromium } from './chromium.ts';
export { withGoFlag } from './go-flags.ts';
export { memoryAfterCollection } from './kept-memory.ts';
export { linkedCopy } from './linked-copy.ts';
export { skipWhenMissing } from './missing.ts';
export { nodeRuntimesDir, registryNodeBin } from './node-runtimes.ts';
export { opensslNewKey } from './openssl.ts';
export {
  childPids,
  type RssParts,
  type RssSampler,
  readChildrenCpuSeconds,
  readCpuSeconds,
  readRss,
  readRssParts,
  sampleRss,
} from './proc.ts';
export {
  childrenExitWithParent,
  exitWithParent,
  ownerGone,
  ownerMark,
  type Printed,
  printedBy,
  stopOnExit,
  stopsWithThisProcess,
} from './processes.ts';
export { type RunOutcome, type SummaryTask, TestRunTally } from './test-run.ts';
export { machineNode, which } from './which.ts';
export { signInThroughWidget, WIDGET_FRAME, widgetFrame } from './widget.ts';
