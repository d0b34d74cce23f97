// What the commands print. Colours only when the stream is a terminal that has them (NO_COLOR applies), or when
// FORCE_COLOR asks for them, as Node.js decides for its own output: decided here, since styleText checks the stream
// only from Node.js 22.13 on. With --json every command prints JSON on stdout and nothing else there.
import { styleText } from 'node:util';

type Style = Parameters<typeof styleText>[0];

function hasColors(stream: NodeJS.WriteStream): boolean {
  const force = process.env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force !== 'false';
  return stream.isTTY === true && stream.hasColors();
}

export const paint = (style: Style, text: string, stream: NodeJS.WriteStream = process.stdout): string =>
  hasColors(stream) ? styleText(style, text, { validateStream: false }) : text;

/** The colour of an HTTP status: green 2xx, yellow 3xx/4xx, red 5xx or none. */
export const statusStyle = (status: number | null): Style => (status === null || status >= 500 ? 'red' : status >= 300 ? 'yellow' : 'green');

/** Rows under a header, columns padded to their widest cell. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)));
  const format = (cells: string[]) =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column]!)))
      .join('  ')
      .trimEnd();
  return [paint('bold', format(header)), ...rows.map(format)].join('\n');
}

/** `HH:MM:SS` of an ISO time or a Date, in local time. */
export const clockTime = (time: string | Date): string => new Date(time).toTimeString().slice(0, 8);

export const printJson = (value: unknown): void => {
  process.stdout.write(`${JSON.stringify(value)}\n`);
};
