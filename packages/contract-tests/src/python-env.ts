// `npm run python-env -w @aggregation/contract-tests`: creates .venv with the pinned Schemathesis ahead of the tests
// (CI runs it as its own install step, so that a network or Python problem shows as one).
import { ensureEnv, findPython } from './python.ts';

const found = await findPython();
if ('missing' in found) {
  console.error(found.missing);
  process.exit(1);
}
const env = await ensureEnv(found.python, (line) => console.log(line));
console.log(`Schemathesis ready: ${env.schemathesis}`);
