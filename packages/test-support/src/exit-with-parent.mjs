// Preloaded (`node --import`) into a process a test starts: once its parent is gone (the test process was killed,
// even by SIGKILL, and the child was handed to init), it sends itself SIGTERM, so that its own shutdown runs.
// JavaScript, not TypeScript: it runs on whichever Node.js the child runs on.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) process.kill(process.pid, 'SIGTERM');
}, 500).unref();
