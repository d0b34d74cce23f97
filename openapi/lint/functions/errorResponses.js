// Each operation declares the errors a client must be ready for, derived from what the operation takes:
// credentials (400 bad_request, 401, 403), input to validate (422), and resources named in the path (404).
import { createRulesetFunction } from '@stoplight/spectral-core';

export const httpMethods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/**
 * @typedef {Record<string, unknown>} JsonObject
 * @typedef {{ path: (string | number)[], missing: string[], reasons: string[] }} Finding
 */

/**
 * True when a security requirement list demands credentials (an empty list or only `{}` entries means anonymous).
 * @param {unknown} security
 */
export function requiresCredentials(security) {
  return Array.isArray(security) && security.some((entry) => entry && typeof entry === 'object' && Object.keys(entry).length > 0);
}

/**
 * The status codes an operation must declare, each with the reason why.
 * @param {JsonObject} operation
 * @param {JsonObject} pathItem
 * @param {unknown} rootSecurity
 * @returns {Map<string, string>}
 */
export function expectedStatuses(operation, pathItem, rootSecurity) {
  /** @type {Map<string, string>} */
  const expected = new Map();
  const security = operation.security === undefined ? rootSecurity : operation.security;
  if (requiresCredentials(security)) {
    expected.set('400', 'it requires credentials');
    expected.set('401', 'it requires credentials');
    expected.set('403', 'it requires credentials');
  }
  // Operation parameters override path-level ones of the same name and location.
  /** @type {Map<string, JsonObject>} */
  const parameters = new Map();
  for (const list of [pathItem.parameters, operation.parameters]) {
    if (!Array.isArray(list)) continue;
    for (const parameter of list) {
      if (parameter && typeof parameter === 'object') parameters.set(`${parameter.in}:${parameter.name}`, parameter);
    }
  }
  const locations = [...parameters.values()].map((parameter) => parameter.in);
  if (operation.requestBody) expected.set('422', 'it takes a request body');
  else if (locations.includes('query')) expected.set('422', 'it takes query parameters');
  if (locations.includes('path')) expected.set('404', 'it takes path parameters');
  return expected;
}

/**
 * Input: the whole document. Reports each operation under `paths` that misses an error response it can give.
 */
export default createRulesetFunction(
  { input: { type: 'object' }, options: null },
  /**
   * @param {JsonObject} document
   * @param {null} _options
   * @param {import('@stoplight/spectral-core').RulesetFunctionContext} context
   */
  function errorResponses(document, _options, context) {
    /** @type {import('@stoplight/spectral-core').IFunctionResult[]} */
    const results = [];
    const paths = document.paths;
    if (!paths || typeof paths !== 'object') return results;
    for (const [path, rawItem] of Object.entries(paths)) {
      if (!rawItem || typeof rawItem !== 'object') continue;
      const pathItem = /** @type {JsonObject} */ (rawItem);
      for (const method of httpMethods) {
        const operation = /** @type {JsonObject | undefined} */ (pathItem[method]);
        if (!operation || typeof operation !== 'object') continue;
        const responses = /** @type {JsonObject} */ (operation.responses ?? {});
        const expected = expectedStatuses(operation, pathItem, document.security);
        for (const [status, reason] of expected) {
          if (status in responses) continue;
          results.push({
            message: `Operation must declare a ${status} response because ${reason}.`,
            // Point at the responses map, or at the operation when it has none.
            path: [...context.path, 'paths', path, method, ...(operation.responses ? ['responses'] : [])],
          });
        }
      }
    }
    return results;
  },
);
