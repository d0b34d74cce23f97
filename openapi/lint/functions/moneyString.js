// Money travels as a decimal string (never a float): every money field must be a string constrained by a pattern.
import { createRulesetFunction } from '@stoplight/spectral-core';

/** Property names that always hold money in this API. */
export const moneyNames = ['amount', 'ledger', 'available', 'running_balance'];

/** A property whose own description speaks of money is held to the same rule. */
const moneyDescription = /\b(money|monetary)\b/i;

/**
 * @typedef {Record<string, unknown>} JsonObject
 * @typedef {{ names?: string[] }} Options
 */

/**
 * True when the schema only admits strings checked by a `pattern` (null is allowed beside them, for nullable money).
 * Combinators are followed: every branch of `oneOf`/`anyOf` must qualify, one branch of `allOf` suffices.
 * @param {unknown} schema
 * @returns {boolean}
 */
export function isPatternedString(schema) {
  if (!schema || typeof schema !== 'object') return false;
  const node = /** @type {JsonObject} */ (schema);
  for (const keyword of ['oneOf', 'anyOf']) {
    const branches = node[keyword];
    if (Array.isArray(branches)) {
      const valued = branches.filter((branch) => !isNullSchema(branch));
      return valued.length > 0 && valued.every(isPatternedString);
    }
  }
  if (Array.isArray(node.allOf) && node.allOf.some(isPatternedString)) return true;
  const types = Array.isArray(node.type) ? node.type : [node.type];
  const onlyStrings = types.includes('string') && types.every((type) => type === 'string' || type === 'null');
  return onlyStrings && typeof node.pattern === 'string' && node.pattern.length > 0;
}

/** @param {unknown} schema */
function isNullSchema(schema) {
  if (!schema || typeof schema !== 'object') return false;
  const node = /** @type {JsonObject} */ (schema);
  return node.type === 'null' || (Array.isArray(node.type) && node.type.length === 1 && node.type[0] === 'null');
}

/**
 * Input: the `properties` map of a schema. Reports each money property that is not a patterned string.
 */
export default createRulesetFunction(
  {
    input: { type: 'object' },
    options: {
      type: ['object', 'null'],
      properties: { names: { type: 'array', items: { type: 'string' } } },
      additionalProperties: false,
    },
  },
  /**
   * @param {JsonObject} properties
   * @param {Options | null} options
   * @param {import('@stoplight/spectral-core').RulesetFunctionContext} context
   */
  function moneyString(properties, options, context) {
    const names = options?.names ?? moneyNames;
    /** @type {import('@stoplight/spectral-core').IFunctionResult[]} */
    const results = [];
    for (const [name, schema] of Object.entries(properties)) {
      if (!schema || typeof schema !== 'object') continue;
      const description = /** @type {JsonObject} */ (schema).description;
      const isMoney = names.includes(name) || (typeof description === 'string' && moneyDescription.test(description));
      if (isMoney && !isPatternedString(schema)) {
        results.push({
          message: `Money field "${name}" must be a string with a pattern (for example a $ref to Money).`,
          path: [...context.path, name],
        });
      }
    }
    return results;
  },
);
