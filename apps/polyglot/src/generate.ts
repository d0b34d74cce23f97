// `npm run generate:clients`: the Python and Go clients of the current version, and openapi-generator's
// typescript-fetch, python and java clients, into clients/.
import { skipWhenMissing } from '@aggregation/test-support';
import { generateGoClient } from './go.ts';
import { generateWithOpenapiGenerator, openapiGeneratorVersion, outputRoot } from './openapi-generator.ts';
import { bundlePath, goClientDir, pythonClientDir } from './paths.ts';
import { ensureVenv, generatePythonClient } from './python.ts';
import { findToolchain, missingTool } from './toolchain.ts';

const toolchain = findToolchain();
console.log(`Generating clients from ${bundlePath}`);

if (!skipWhenMissing('the python client', missingTool('python', toolchain))) {
  await ensureVenv(toolchain.python!);
  console.log(`python client: ${await generatePythonClient()} (${pythonClientDir}, package aggregation_client)`);
}

if (!skipWhenMissing('the go client', missingTool('go', toolchain)))
  console.log(`go client: ${await generateGoClient(toolchain.go!)} (${goClientDir}, package aggregation)`);

const noJava = skipWhenMissing('the openapi-generator clients', missingTool('java', toolchain) ?? missingTool('maven', toolchain));
if (!noJava) {
  const outcome = await generateWithOpenapiGenerator(toolchain.java!, toolchain.maven!);
  console.log(`openapi-generator ${openapiGeneratorVersion} clients: ${outcome} (${outputRoot}: typescript-fetch, python, java)`);
}
