// The shell blocks of a README, read with a Markdown parser (marked's lexer), so that what runs is what the text
// shows. A block not meant to run says so just above its fence, with its reason:
//   <!-- readme-test: skip: the release's own packing; apps/release tests it -->
import { lexer, type Token, type Tokens } from 'marked';

export interface ShellBlock {
  /** The heading the block is under (the nearest one above it). */
  section: string;
  /** The line of the README its fence opens on. */
  line: number;
  /** Its commands: one per line, a line ending in `\` joined to the next; blank lines and comment lines dropped. */
  commands: string[];
  /** Why it is not run, when the README says so. */
  skip?: string;
}

const SHELL_LANGUAGES = new Set(['sh', 'bash', 'shell']);
const SKIP_MARK = /^<!--\s*readme-test:\s*skip:\s*([\s\S]*?)\s*-->\s*$/;

/** The commands of a shell block's text. */
export function commandsOf(text: string): string[] {
  const commands: string[] = [];
  let pending = '';
  for (const raw of text.split('\n')) {
    const line = pending + raw;
    if (line.endsWith('\\')) {
      pending = `${line.slice(0, -1)} `;
      continue;
    }
    pending = '';
    if (line.trim() && !line.trim().startsWith('#')) commands.push(line.trim());
  }
  return commands;
}

export function shellBlocks(markdown: string): ShellBlock[] {
  const blocks: ShellBlock[] = [];
  let section = '';
  let offset = 0;
  let previous: Token | undefined;
  for (const token of lexer(markdown)) {
    const line = markdown.slice(0, offset).split('\n').length;
    if (token.type === 'heading') section = (token as Tokens.Heading).text;
    if (token.type === 'code' && SHELL_LANGUAGES.has((token as Tokens.Code).lang ?? '')) {
      const skip = previous?.type === 'html' ? SKIP_MARK.exec(previous.raw.trim())?.[1] : undefined;
      blocks.push({ section, line, commands: commandsOf((token as Tokens.Code).text), ...(skip ? { skip } : {}) });
    }
    offset += token.raw.length;
    if (token.type !== 'space') previous = token;
  }
  return blocks;
}
