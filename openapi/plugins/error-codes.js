// Redocly plugin: the reference's table of error codes, rendered at bundle time from the one list of them
// (`x-error-codes`, from spec/error-codes.yaml) in place of the marker `<!-- error-codes -->` of `info.description`.

export const marker = '<!-- error-codes -->';

const cell = (text) => String(text).replaceAll('|', '\\|').replaceAll('\n', ' ');

/** The Markdown table of a list of error codes: status, code, when, what to do. */
export function errorCodesTable(codes) {
  const rows = [...codes]
    .sort((a, b) => a.status - b.status)
    .map((entry) => `| ${entry.status} | \`${cell(entry.code)}\` | ${cell(entry.when)} | ${cell(entry.action)} |`);
  return ['| Status | `error.code` | When | What to do |', '|---|---|---|---|', ...rows].join('\n');
}

function ErrorCodesTable() {
  return {
    Root: {
      leave(root, ctx) {
        const declared = root['x-error-codes'];
        const codes = declared && declared.$ref ? ctx.resolve(declared).node : declared;
        const description = root.info?.description;
        if (!Array.isArray(codes) || typeof description !== 'string' || !description.includes(marker)) return;
        root.info.description = description.replace(marker, errorCodesTable(codes));
      },
    },
  };
}

export default function aggregationPlugin() {
  return { id: 'aggregation', decorators: { oas3: { 'error-codes-table': ErrorCodesTable } } };
}
