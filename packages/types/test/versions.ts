// Type-level proof that the versions module names each version's generated types: this file only has to compile.

import type { components as OlderComponents } from '@aggregation/types/2019-07-01';
import type { paths as CurrentPaths } from '@aggregation/types/2020-10-12';
import type { ComponentsByVersion, CURRENT_VERSION, PathsByVersion, VERSIONS, Version } from '@aggregation/types/versions';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const assert = <T extends true>(): T => true as T;

assert<Equal<Version, (typeof VERSIONS)[number]>>();
assert<Equal<keyof PathsByVersion, Version>>();
assert<Equal<PathsByVersion[typeof CURRENT_VERSION], CurrentPaths>>();
assert<Equal<ComponentsByVersion['2019-07-01'], OlderComponents>>();
// A date that is no version has no types.
assert<Equal<'2001-01-01' extends keyof PathsByVersion ? true : false, false>>();
