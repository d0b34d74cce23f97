// `aggregation clock advance <duration>` and `aggregation clock show`: the enrollment's sandbox clock.
import type { Command } from 'commander';
import { Context } from '../context.ts';
import { type ClockAdvance, parseDuration } from '../duration.ts';

const describeClock = (clock: { now: string; offset_seconds: number }) =>
  `Enrollment clock: ${clock.now} (${(clock.offset_seconds / 86_400).toFixed(2).replace(/\.?0+$/, '')} days ahead of real time)`;

export function clockCommand(program: Command): void {
  const clock = program.command('clock').description("Read or move the enrollment's sandbox clock");
  clock
    .command('advance')
    .description('Move the clock forward; everything that falls due in the span happens')
    .argument('<duration>', 'how far: 3d, 8d, 12h, 1d12h, 90m, 30s', parseDuration)
    .option('--enrollment <id>', 'the clock of this enrollment (made by `aggregation enroll` on this server)')
    .addHelpText(
      'after',
      `
Examples:
  $ aggregation clock advance 3d     # pending transactions post, enrichment completes
  $ aggregation clock advance 8d     # a microdeposit verification expires
  $ aggregation clock advance 12h`,
    )
    .action(async (body: ClockAdvance, options: { enrollment?: string }, command: Command) => {
      const context = Context.of(command);
      const sandbox = context.sandbox(context.token(options.enrollment));
      const moved = await context.ok(sandbox.POST('/sandbox/clock/advance', { body }), 'POST /sandbox/clock/advance');
      context.print(moved, () => describeClock(moved));
    });
  clock
    .command('show')
    .description("Print the enrollment's clock")
    .option('--enrollment <id>', 'the clock of this enrollment')
    .action(async (options: { enrollment?: string }, command: Command) => {
      const context = Context.of(command);
      const read = await context.ok(context.sandbox(context.token(options.enrollment)).GET('/sandbox/clock'), 'GET /sandbox/clock');
      context.print(read, () => describeClock(read));
    });
}
