// CPython 3.11 fails a syntax tree built while another thread builds one (`SystemError: AST constructor recursion
// depth mismatch`, python/cpython#106905), and Schemathesis' workers are threads that build them: schemathesis_hooks.py
// keeps them to one at a time. Here four threads build trees while garbage with finalizers is collected
// (test/fixtures/syntax-trees-from-threads.py), in the pinned environment, with and without the hooks loaded.
// `npm run test:threads` runs the Schemathesis suite itself 30 times with 4 workers (CI, after npm test).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { skipWhenMissing } from '@aggregation/test-support';
import { test } from 'vitest';
import { defaultCacheDir, ensureEnv, findPython, packageDir } from '../src/python.ts';

const run = promisify(execFile);
const script = join(import.meta.dirname, 'fixtures', 'syntax-trees-from-threads.py');
const hooks = join(packageDir, 'schemathesis_hooks.py');
/** Trees each of the four threads builds: a few seconds on a busy machine, where 3.11 fails several without the hooks. */
const BUILDS = 10;

const found = await findPython('python3');
const noPython = skipWhenMissing('syntax trees built from several threads', 'missing' in found && found.missing);

async function build(withHooks: boolean): Promise<{ python: string; builds: number; errors: string[] }> {
  if ('missing' in found) throw new Error(found.missing);
  const { python } = await ensureEnv(found, defaultCacheDir(), () => undefined);
  const { stdout } = await run(python, [script, withHooks ? hooks : '-', String(BUILDS)], { cwd: packageDir });
  return JSON.parse(stdout);
}

test.skipIf(noPython)('with the hooks loaded, syntax trees built from four threads at once never fail', async () => {
  const result = await build(true);
  assert.equal(result.builds, 4 * BUILDS);
  assert.deepEqual(result.errors, [], `Python ${result.python}`);
});

// The control: the same builds without the hooks fail on 3.11, so the test above can fail there. 3.12 collects garbage
// only between bytecodes and 3.13 keeps the count per call; neither fails, and the hooks change nothing on them.
const on311 = !('missing' in found) && found.version.startsWith('3.11.');
test.skipIf(noPython || !on311)('without them, the same builds fail on Python 3.11 (the fault is real here)', async () => {
  const result = await build(false);
  assert.ok(result.errors.length > 0, `no SystemError in ${result.builds} builds on Python ${result.python}`);
  assert.match(result.errors[0]!, /AST constructor recursion depth mismatch/);
});

test.skipIf(noPython)("compile() behind the hooks still inherits its caller's `from __future__` imports, as the built-in does", async () => {
  if ('missing' in found) return;
  const { python } = await ensureEnv(found, defaultCacheDir(), () => undefined);
  // A caller with `from __future__ import annotations` compiles a function: its annotation stays a string unless
  // dont_inherit says otherwise; ast.parse's trees are the same as without the hooks.
  const program = `
import ast, importlib.util, sys
if sys.argv[1] != "-":
    spec = importlib.util.spec_from_file_location("hooks", sys.argv[1])
    spec.loader.exec_module(importlib.util.module_from_spec(spec))
caller = """from __future__ import annotations
inherited, alone = {}, {}
exec(compile("def f(x: int): pass", "f", "exec"), inherited)
exec(compile("def f(x: int): pass", "f", "exec", dont_inherit=True), alone)
"""
scope = {}
exec(compile(caller, "caller", "exec"), scope)
print(repr(scope["inherited"]["f"].__annotations__["x"]), repr(scope["alone"]["f"].__annotations__["x"]), ast.dump(ast.parse("a: b = c", type_comments=True)))
`;
  const [hooked, bare] = await Promise.all(
    [hooks, '-'].map(async (given) => (await run(python, ['-c', program, given], { cwd: packageDir })).stdout.trim()),
  );
  assert.match(bare!, /^'int' <class 'int'> /);
  assert.equal(hooked, bare);
});
