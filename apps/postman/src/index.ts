export { buildCollection, buildEnvironment, type Collection, type Environment, variables } from './collection.ts';
export { distDir } from './paths.ts';
