// `npm run generate:clients`: the Python and Go clients of the current version, into clients/.
import { generateGoClient } from './go.ts';
import { bundlePath, goClientDir, pythonClientDir } from './paths.ts';
import { ensureVenv, generatePythonClient } from './python.ts';
import { findToolchain, missingTool } from './toolchain.ts';

const toolchain = findToolchain();
console.log(`Generating clients from ${bundlePath}`);

const noPython = missingTool('python', toolchain);
if (noPython) console.log(`python client: skipped (${noPython})`);
else {
  await ensureVenv(toolchain.python!);
  console.log(`python client: ${await generatePythonClient()} (${pythonClientDir}, package aggregation_client)`);
}

const noGo = missingTool('go', toolchain);
if (noGo) console.log(`go client: skipped (${noGo})`);
else console.log(`go client: ${await generateGoClient(toolchain.go!)} (${goClientDir}, package aggregation)`);
