// The server under test in a child process of its own and, with --server-before, an older copy of it beside it.
import type { ServerArgs, ServerInfo } from '../targets/server.ts';
import { type Child, spawnChild } from './child.ts';
import type { Context } from './context.ts';

const serverScript = new URL('../targets/server.ts', import.meta.url);

/** One server process; `name` labels its CPU profile; `nodeFlags` are given to its node beside the profiler's. */
export function spawnServer(ctx: Context, name: string, args: ServerArgs, nodeFlags: string[] = []): Promise<Child<ServerInfo>> {
  return spawnChild<ServerInfo>(serverScript, args, { execArgv: [...nodeFlags, ...ctx.execArgv(name)] });
}

/** The current server and, when --server-before names one, the older copy on `beforeDatabasePath`. */
export async function spawnServers(
  ctx: Context,
  scenario: string,
  args: ServerArgs,
  beforeDatabasePath = args.databasePath,
): Promise<{ server: Child<ServerInfo>; before: Child<ServerInfo> | undefined }> {
  const server = await spawnServer(ctx, `${scenario}-server`, args);
  const module = ctx.options.serverBefore;
  const before = module ? await spawnServer(ctx, `${scenario}-server-before`, { ...args, databasePath: beforeDatabasePath, module }) : undefined;
  return { server, before };
}
