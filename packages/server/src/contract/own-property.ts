// Request bodies become objects keyed by what the caller sent; those keys must stay data.

/** Sets an own, enumerable property: plain assignment to `__proto__` would set the object's prototype instead. */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
