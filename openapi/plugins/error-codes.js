// Redocly plugin: the reference's table of error codes, rendered at bundle time from the one list of them
// (`x-error-codes`, from spec/error-codes.yaml) in place of the marker `<!-- error-codes -->` of `info.description`.
import { errorCodesMarker, errorCodesTable } from '../src/error-codes.ts';

function ErrorCodesTable() {
  return {
    Root: {
      leave(root, ctx) {
        const declared = root['x-error-codes'];
        const codes = declared?.$ref ? ctx.resolve(declared).node : declared;
        const description = root.info?.description;
        if (!Array.isArray(codes) || typeof description !== 'string' || !description.includes(errorCodesMarker)) return;
        root.info.description = description.replace(errorCodesMarker, errorCodesTable(codes));
      },
    },
  };
}

export default function aggregationPlugin() {
  return { id: 'aggregation', decorators: { oas3: { 'error-codes-table': ErrorCodesTable } } };
}
