import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, it } from 'vitest';
import { exitWithParent, ownerGone, ownerMark, printedBy, stopsWithThisProcess } from '../src/processes.ts';

const processes = pathToFileURL(join(import.meta.dirname, '../src/processes.ts')).href;
const scratch = mkdtempSync(join(tmpdir(), 'test-support-processes-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Runs `source` (an ES module that may import `processes`) in a child Node.js with piped output. */
function node(source: string, args: string[] = []) {
  return spawn(process.execPath, [...args, '--input-type=module', '-e', source], { stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Whether `pid` still runs (a zombie counts as ended). */
function running(pid: number): boolean {
  try {
    return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/**
 * Runs `source` in a parent Node.js that stays up; once it has run and printed `pid <n>`, ends the parent with SIGTERM and
 * waits (with no limit but the test's) until process n has ended too.
 */
async function endsWithParent(source: string): Promise<void> {
  const parent = node(`import { spawn } from 'node:child_process';\n${source}\nconsole.log('ready');\nsetInterval(() => {}, 1000);`);
  const printed = printedBy(parent);
  const [, pid] = (await printed.waitFor(/pid (\d+)/)) as unknown as [string, string];
  // Signalled only once `source` has run to its end (a child may print its pid before the parent has registered it).
  await printed.waitFor(/^ready$/m);
  const parentExited = once(parent, 'exit');
  parent.kill('SIGTERM');
  await parentExited;
  while (running(Number(pid))) await new Promise((resolve) => setTimeout(resolve, 100));
}

describe('stopOnExit', () => {
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    it(`runs the stops when ${signal} ends the process, which then exits as the signal would`, async () => {
      const marker = join(scratch, `stopped-${signal}`);
      const child = node(
        `import { writeFileSync } from 'node:fs';
         const { stopOnExit } = await import(${JSON.stringify(processes)});
         stopOnExit(() => writeFileSync(${JSON.stringify(marker)}, 'first'));
         stopOnExit(() => { throw new Error('already gone'); });
         const takenBack = stopOnExit(() => writeFileSync(${JSON.stringify(marker)}, 'taken back'));
         takenBack();
         console.log('ready');
         setInterval(() => {}, 1000);`,
      );
      await printedBy(child).waitFor(/ready/);
      const exited = once(child, 'exit');
      child.kill(signal);
      const [code] = await exited;
      assert.equal(code, { SIGTERM: 143, SIGINT: 130, SIGHUP: 129 }[signal]);
      assert.equal(readFileSync(marker, 'utf8'), 'first');
    });
  }

  it('runs the stops when the process exits by itself', async () => {
    const marker = join(scratch, 'stopped-exit');
    const child = node(
      `import { writeFileSync } from 'node:fs';
       const { stopOnExit } = await import(${JSON.stringify(processes)});
       stopOnExit(() => writeFileSync(${JSON.stringify(marker)}, 'stopped'));`,
    );
    const [code] = await once(child, 'exit');
    assert.equal(code, 0);
    assert.equal(readFileSync(marker, 'utf8'), 'stopped');
  });
});

/**
 * Starts a parent that spawns a child through `spawnChild` (source that starts the child's `source` as `child`, given
 * its start arguments), kills the parent with SIGKILL, and resolves with what the parent printed once the child has
 * ended; the child's own SIGTERM handler must have run.
 */
async function orphanEnds(name: string, spawnChild: (args: string) => string): Promise<string> {
  const marker = join(scratch, name);
  const source = `import { writeFileSync } from 'node:fs';
    process.on('SIGTERM', () => { writeFileSync(${JSON.stringify(marker)}, 'terminated'); process.exit(0); });
    console.log('child ready');
    setInterval(() => {}, 1000);`;
  const parent = node(
    `import { spawn } from 'node:child_process';
     ${spawnChild(`'--input-type=module', '-e', ${JSON.stringify(source)}`)}
     child.stdout.on('data', (chunk) => { if (String(chunk).includes('child ready')) console.log('pid', child.pid, process.env.NODE_OPTIONS ?? ''); });
     setInterval(() => {}, 1000);`,
  );
  const [line, pid] = (await printedBy(parent).waitFor(/pid (\d+) .*/)) as unknown as [string, string];
  const parentExited = once(parent, 'exit');
  parent.kill('SIGKILL');
  await parentExited;
  // No deadline: the child notices within its polling interval, and the hang guard ends a test that never sees it.
  while (running(Number(pid))) await new Promise((resolve) => setTimeout(resolve, 100));
  assert.equal(readFileSync(marker, 'utf8'), 'terminated');
  return line;
}

describe('exitWithParent', () => {
  it('ends a child with SIGTERM once its parent was killed with SIGKILL', async () => {
    await orphanEnds(
      'orphan-terminated',
      (args) => `const child = spawn(process.execPath, [...${JSON.stringify(exitWithParent)}, ${args}], { stdio: ['ignore', 'pipe', 'inherit'] });`,
    );
  });
});

describe('childrenExitWithParent', () => {
  it("ends a child a library spawns with this process's environment once its parent was killed with SIGKILL", async () => {
    // The parent spawns the child as a library would: no exitWithParent among its arguments, only the environment.
    const printed = await orphanEnds(
      'library-child-terminated',
      (args) => `const { childrenExitWithParent } = await import(${JSON.stringify(processes)});
       childrenExitWithParent();
       childrenExitWithParent();
       const child = spawn(process.execPath, [${args}], { stdio: ['ignore', 'pipe', 'inherit'] });`,
    );
    assert.equal(printed.split('exit-with-parent.mjs').length, 2, `added to NODE_OPTIONS once: ${printed}`);
  });
});

describe('stopsWithThisProcess', () => {
  it('kills the child when this process is ended by a signal', async () => {
    await endsWithParent(
      `const { stopsWithThisProcess } = await import(${JSON.stringify(processes)});
       const child = stopsWithThisProcess(spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' }));
       console.log('pid', child.pid);`,
    );
  });

  it('returns the child it was given', async () => {
    const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
    assert.equal(stopsWithThisProcess(child), child);
    await once(child, 'exit');
  });
});

describe('stopsWithThisProcess with group', () => {
  it("kills the child's whole process group, what it started too, when this process is ended by a signal", async () => {
    // The shell's own child, not the shell, is the process watched.
    await endsWithParent(
      `const { stopsWithThisProcess } = await import(${JSON.stringify(processes)});
       const child = spawn('sh', ['-c', 'sleep 1000 & echo pid $!; wait'], { stdio: ['ignore', 'inherit', 'ignore'], detached: true });
       stopsWithThisProcess(child, { group: true });`,
    );
  });
});

describe('ownerMark and ownerGone', () => {
  it("a running process's mark is not gone; a finished one's is", async () => {
    assert.equal(ownerGone(ownerMark()), false);
    const child = node('');
    const pid = child.pid!;
    await once(child, 'exit');
    assert.equal(ownerGone(`${pid} 1`), true);
  });

  it('a pid now held by a process started later is gone', () => {
    const [pid, started] = ownerMark().split(' ');
    assert.equal(ownerGone(`${pid} ${Number(started) - 1}`), true);
  });

  it('a mark that names no pid is not taken as gone', () => {
    assert.equal(ownerGone('not a pid'), false);
    assert.equal(ownerGone(''), false);
  });
});

describe('printedBy', () => {
  it('resolves a wait when the line comes, on stdout or stderr, and keeps the output', async () => {
    const child = node(`console.log('one'); console.error('two 42');`);
    const printed = printedBy(child);
    const [, number] = (await printed.waitFor(/two (\d+)/)) as unknown as [string, string];
    assert.equal(number, '42');
    await once(child, 'close');
    assert.match(printed.output(), /one\n/);
  });

  it('rejects a wait for a line the process ended without printing, with what it printed', async () => {
    const child = node(`console.log('only this')`);
    await assert.rejects(printedBy(child, 'the child').waitFor(/never/), /the child ended without printing \/never\/:\nonly this/);
  });
});
