// `npm run python-env -w @aggregation/contract-tests`: makes Schemathesis' environment ahead of the tests (in the cache
// directory the command uses), so that a network or Python problem shows as one.
import { defaultCacheDir, ensureEnv, findPython } from './python.ts';

const found = await findPython(process.env.PYTHON ?? 'python3');
if ('missing' in found) {
  console.error(found.missing);
  process.exit(1);
}
const env = await ensureEnv(found, process.env.AGGREGATION_CONTRACT_CACHE ?? defaultCacheDir(), (line) => console.log(line));
console.log(`Schemathesis ready: ${env.dir}`);
