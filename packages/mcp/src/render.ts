// The text beside a result's structuredContent: the same data, compact, for a reader (and for hosts that give a model
// only the text). One line per item, every field but the links' URLs (a link's name says what the resource offers).
import type { JsonObject } from '@aggregation/openapi/bundles';
import { LIST_KEY, NEXT_PAGE_KEY } from './tools.ts';

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `{id: acc_1, name: Checking, institution: {id: chase, name: Chase}, links: [self, payments]}` */
export function inlineValue(value: unknown, key?: string): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return value === '' ? '""' : value;
  if (typeof value !== 'object') return String(value);
  if (Array.isArray(value)) return `[${value.map((item) => inlineValue(item)).join(', ')}]`;
  if (key === 'links') return `[${Object.keys(value).join(', ')}]`;
  return `{${Object.entries(value)
    .map(([name, item]) => `${name}: ${inlineValue(item, name)}`)
    .join(', ')}}`;
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

/** A list or a page: a count, a line per item, and how to read on. */
export function renderList(title: string, structured: JsonObject): string {
  const items = (structured[LIST_KEY] as unknown[]) ?? [];
  const lines = [`${title}: ${plural(items.length, 'item')}.`, ...items.map((item) => `- ${inlineValue(item)}`)];
  if (NEXT_PAGE_KEY in structured) {
    const next = structured[NEXT_PAGE_KEY];
    lines.push(typeof next === 'string' ? `More: call again with from_id ${next}.` : 'This is the last page.');
  }
  return lines.join('\n');
}

/** One resource: its title, then its fields. */
export function renderObject(title: string, structured: JsonObject): string {
  return `${title}: ${inlineValue(structured)}`;
}

export { isObject };
