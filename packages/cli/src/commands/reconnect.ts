// `aggregation reconnect`: reconnects a disconnected enrollment, as its user signing in again would.
import type { Command } from 'commander';
import { Context } from '../context.ts';

export function reconnectCommand(program: Command): void {
  program
    .command('reconnect')
    .description('Reconnect a disconnected enrollment: healthy again, with the same token, and enrollment.reconnected is sent')
    .option('--enrollment <id>', 'this enrollment (made by `aggregation enroll` on this server)')
    .addHelpText(
      'after',
      `
Examples:
  $ aggregation enroll disconnected.credentials_changed
  $ aggregation reconnect
  $ aggregation reconnect --enrollment enr_3fh9kq2mlx7pz1wn`,
    )
    .action(async (options: { enrollment?: string }, command: Command) => {
      const context = Context.of(command);
      const sandbox = context.sandbox(context.token(options.enrollment));
      const enrollment = await context.ok(sandbox.POST('/sandbox/enrollment/reconnect'), 'POST /sandbox/enrollment/reconnect');
      context.print(
        enrollment,
        () => `Reconnected ${enrollment.id} at ${enrollment.institution.name}: ${enrollment.status}; enrollment.reconnected is on its way.`,
      );
    });
}
