// Part of `postinstall`: when npm itself ran on an older Node.js than the one the scripts run on, say so in one line
// (npm's warnings, among them one per development tool whose engines want a newer Node.js, are hidden by .npmrc).
// biome-ignore lint/suspicious/noUndeclaredEnvVars: set by npm for its lifecycle scripts, which turbo does not run
const npmNode = /\bnode\/v(\S+)/.exec(process.env.npm_config_user_agent ?? '')?.[1];
if (npmNode && Number(npmNode.split('.')[0]) < Number(process.versions.node.split('.')[0])) {
  console.log(
    `npm ran on Node.js ${npmNode}; every script of this repository runs on Node.js ${process.versions.node}, which npm installed into node_modules.`,
  );
}
