// How each target's generated client names the values of the description's enums, read from the generated sources,
// against the convention of its language that matrix.yaml declares (`enumValues.case`): `PERSON` in Java, Kotlin,
// Python, Ruby and PHP, `Person` in TypeScript and Rust, `PAYEETYPE_PERSON` (openapi-generator) and `PayeeTypePerson`
// (oapi-codegen, ogen) in Go, the string literal itself where a client types values as a union of literals. The
// description names no value for one language: each generator's own options make its names.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadBundle } from '@aggregation/openapi/contract';
import { readConfig } from './openapi-generator.ts';
import { clientsDir, goClientDir, pythonClientDir, repoRoot } from './paths.ts';

/** The enums whose names are checked: those whose values other enums share (`person`, `pending`), and one beside them. */
export const checkedEnums = [
  'TransactionStatus',
  'TransactionProcessingStatus',
  'TransactionCounterpartyType',
  'PayeeType',
  'PaymentSchemeName',
] as const;
export type CheckedEnum = (typeof checkedEnums)[number];

/**
 * How a language writes an enum's value, by the name of the convention in matrix.yaml:
 * `UPPER_SNAKE` `PERSON`, `PascalCase` `Person`, `TYPE_UPPER_SNAKE` `PAYEETYPE_PERSON`, `TypePascalCase`
 * `PayeeTypePerson`, `literal` `'person'` (the value itself, as a string literal type).
 */
export const enumCases = ['UPPER_SNAKE', 'PascalCase', 'TYPE_UPPER_SNAKE', 'TypePascalCase', 'literal'] as const;
export type EnumCase = (typeof enumCases)[number];

const words = (value: string) => value.split(/[^A-Za-z0-9]+/).filter(Boolean);
const pascal = (value: string) =>
  words(value)
    .map((word) => word[0]!.toUpperCase() + word.slice(1).toLowerCase())
    .join('');

/** The name a convention gives the value `value` of the enum `type`. */
export function expectedName(convention: EnumCase, type: string, value: string): string {
  switch (convention) {
    case 'UPPER_SNAKE':
      return words(value).join('_').toUpperCase();
    case 'PascalCase':
      return pascal(value);
    case 'TYPE_UPPER_SNAKE':
      return `${type.toUpperCase()}_${words(value).join('_').toUpperCase()}`;
    case 'TypePascalCase':
      return `${type}${pascal(value)}`;
    case 'literal':
      return `'${value}'`;
  }
}

/** The values of an enum of the description the clients are generated from (its `null`, where nullable, left out). */
export function enumValues(type: string): string[] {
  const schema = loadBundle('2020-10-12').components?.schemas?.[type] as { enum?: unknown[] } | undefined;
  if (!schema?.enum) throw new Error(`the description has no enum ${type}`);
  return schema.enum.filter((value): value is string => typeof value === 'string');
}

const snake = (type: string) => type.replace(/(?<!^)([A-Z])/g, '_$1').toLowerCase();
/** The source between `opening` and the first `closing` after it. */
const between = (text: string, opening: string, closing: string) => {
  const start = text.indexOf(opening);
  if (start < 0) return '';
  const end = text.indexOf(closing, start + opening.length);
  return text.slice(start + opening.length, end < 0 ? undefined : end);
};
/** `[name, value]` pairs of a pattern whose groups are the name then the value (or `valueFirst`). */
const pairs = (text: string, pattern: RegExp, valueFirst = false): [string, string][] =>
  [...text.matchAll(pattern)].map((match) => (valueFirst ? [match[2]!, match[1]!] : [match[1]!, match[2]!]));

/** What this module needs of a target of matrix.yaml (matrix.ts's TargetDefinition). */
type Target = { name: string; config?: string; enumValues: { case: EnumCase } };

/** Where a target's client declares an enum, and how its values are written there. */
type Reader = { file(type: string): string; read(source: string, type: string): [string, string][] };

const configOutput = (target: Target) => readConfig(join(repoRoot, target.config!)).outputDir;
const goConstants = (source: string, type: string) => pairs(source, new RegExp(`^\\s*(\\w+)\\s+${type} = "([^"]*)"`, 'gm'));
const tsObject = (source: string, type: string) => pairs(between(source, `export const ${type} = {`, '}'), /(\w+): '([^']*)'/g);

function readerOf(target: Target): Reader {
  const out = () => configOutput(target);
  switch (target.name) {
    case 'openapi-generator-typescript-fetch':
      return { file: (type) => join(out(), 'src', 'models', `${type}.ts`), read: tsObject };
    case 'openapi-generator-typescript-axios':
      return { file: () => join(out(), 'api.ts'), read: tsObject };
    case 'hey-api-openapi-ts':
      return {
        file: () => join(clientsDir, 'hey-api', 'src', 'types.gen.ts'),
        read: (source, type) => pairs(between(source, `export type ${type} = `, ';'), /('([^']*)')/g),
      };
    case 'openapi-generator-python':
      return {
        file: (type) => join(out(), 'aggregation_openapi_client', 'models', `${snake(type)}.py`),
        read: (source) => pairs(source, /^\s+(\w+) = '([^']*)'$/gm),
      };
    case 'openapi-python-client':
      return {
        file: (type) => join(pythonClientDir, 'aggregation_client', 'models', `${snake(type)}.py`),
        read: (source) => pairs(source, /^\s+(\w+) = "([^"]*)"$/gm),
      };
    case 'openapi-generator-java':
      return {
        file: (type) => join(out(), 'src', 'main', 'java', 'example', 'aggregation', 'client', 'model', `${type}.java`),
        read: (source) => pairs(source, /^\s+(\w+)\("([^"]*)"\)[,;]/gm),
      };
    case 'openapi-generator-kotlin':
      return {
        file: (type) => join(out(), 'src', 'main', 'kotlin', 'example', 'aggregation', 'kotlin', 'models', `${type}.kt`),
        read: (source) => pairs(source, /@SerialName\(value = "([^"]*)"\)\s+(\w+)\(/g, true),
      };
    case 'openapi-generator-go':
      return { file: (type) => join(out(), `model_${snake(type)}.go`), read: goConstants };
    case 'oapi-codegen':
      return { file: () => join(goClientDir, 'client.gen.go'), read: goConstants };
    case 'ogen':
      return { file: () => join(clientsDir, 'ogen', 'oas_schemas_gen.go'), read: goConstants };
    case 'openapi-generator-rust':
      return {
        file: (type) => join(out(), 'src', 'models', `${snake(type)}.rs`),
        read: (source) => pairs(source, /#\[serde\(rename = "([^"]*)"\)\]\s+(\w+),/g, true),
      };
    case 'openapi-generator-ruby':
      return {
        file: (type) => join(out(), 'lib', 'aggregation_openapi_client', 'models', `${snake(type)}.rb`),
        read: (source) => pairs(source, /^\s+(\w+) = "([^"]*)"\.freeze$/gm),
      };
    case 'openapi-generator-php':
      return { file: (type) => join(out(), 'lib', 'Model', `${type}.php`), read: (source) => pairs(source, /public const (\w+) = '([^']*)';/g) };
    default:
      throw new Error(`${target.name}: no reader of its enum names in src/enum-names.ts`);
  }
}

/** The generated file a target's client declares an enum in. */
export const enumSourceOf = (target: Target, type: CheckedEnum): string => readerOf(target).file(type);

/** Each checked enum's values, by value, with the name the client gives it. */
export type EnumNames = Record<string, Record<string, string>>;

/** The names a target's generated client gives the checked enums' values, as written in its sources. */
export function readEnumNames(target: Target): EnumNames {
  const reader = readerOf(target);
  return Object.fromEntries(
    checkedEnums.map((type) => {
      const file = reader.file(type);
      if (!existsSync(file)) throw new Error(`${target.name}: ${file} is not there; generate the client first`);
      const named = new Map(reader.read(readFileSync(file, 'utf8'), type).map(([name, value]) => [value, name]));
      // In the description's order of the values, then any the description does not have.
      const values = [...new Set([...enumValues(type).filter((value) => named.has(value)), ...named.keys()])];
      return [type, Object.fromEntries(values.map((value) => [value, named.get(value)!]))];
    }),
  );
}

/** What differs from the target's convention: a value without a name, or named otherwise. */
export function enumNameProblems(target: Target, names: EnumNames): string[] {
  const convention = target.enumValues.case;
  return checkedEnums.flatMap((type) =>
    enumValues(type).flatMap((value) => {
      const expected = expectedName(convention, type, value);
      const got = names[type]?.[value];
      return got === expected ? [] : [`${type} ${value}: ${got ?? 'no name'}, expected ${expected} (${convention})`];
    }),
  );
}
