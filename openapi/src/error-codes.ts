// The error codes the description declares (`x-error-codes`, from spec/error-codes.yaml): one list for the
// reference's table, the Errors guide and the checks of every error example.
import type { OpenApiDocument } from './bundles.ts';

export type ErrorCode = {
  /** The code, or a family of codes ending in `.<reason>` (`account.closed.<reason>`). */
  code: string;
  status: number;
  when: string;
  action: string;
};

const REASON = '.<reason>';

/** The declared error codes of a bundle. */
export function errorCodesOf(document: OpenApiDocument): ErrorCode[] {
  const codes = document['x-error-codes'];
  if (!Array.isArray(codes)) throw new Error(`${document.info.title} ${document.info.version} declares no x-error-codes`);
  return codes as ErrorCode[];
}

/** A family's own tokens (`account.closed` of `account.closed.<reason>`); undefined for a code that is not a family. */
export function familyOf(entry: ErrorCode): string | undefined {
  return entry.code.endsWith(REASON) ? entry.code.slice(0, -REASON.length) : undefined;
}

/** The declared entry a code sent by the API falls under: itself, or its family with any reason tokens. */
export function declaredErrorCode(codes: readonly ErrorCode[], code: string): ErrorCode | undefined {
  return codes.find((entry) => {
    const family = familyOf(entry);
    if (family === undefined) return entry.code === code;
    return code === family || code.startsWith(`${family}.`);
  });
}

/** Where a description wants the table of its error codes. */
export const errorCodesMarker = '<!-- error-codes -->';

const cell = (text: string | number) => String(text).replaceAll('|', '\\|').replaceAll('\n', ' ');

/** The Markdown table of error codes, by status: status, code, when, what to do. */
export function errorCodesTable(codes: readonly ErrorCode[]): string {
  const rows = [...codes]
    .sort((a, b) => a.status - b.status)
    .map((entry) => `| ${entry.status} | \`${cell(entry.code)}\` | ${cell(entry.when)} | ${cell(entry.action)} |`);
  return ['| Status | `error.code` | When | What to do |', '|---|---|---|---|', ...rows].join('\n');
}
