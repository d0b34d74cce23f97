// Entry points for tests and scripts: where the generated clients are, and how to (re)generate them.
export { generateGoClient, goClientModule, goSmokeDir } from './go.ts';
export { buildGoModule, goLayerDir } from './go-module.ts';
export { generateWithOpenapiGenerator, openapiGeneratorVersion, outputRoot as openapiGeneratorDir } from './openapi-generator.ts';
export { bundlePath, clientsDir, goClientDir, pythonClientDir, venvDir } from './paths.ts';
export { ensureVenv, generatePythonClient, venvEnv, venvPython } from './python.ts';
export { assemblePythonPackage, buildPythonPackage, pythonLayerDir, pythonPackageDir, webhookVectorsPath } from './python-package.ts';
export { findToolchain, missingTool } from './toolchain.ts';
