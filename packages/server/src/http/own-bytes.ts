// Bytes in memory of their own. Buffer.from and friends hand out slices of a shared 8 KiB pool for small sizes, and a
// kept slice keeps its whole slab: up to several times its own size, uncounted by the caches that keep it.

/** `body` as UTF-8 bytes in an allocation of their own; a buffer that has one already is returned as it is. */
export function ownBytes(body: string | Buffer): Buffer {
  if (typeof body !== 'string' && body.byteOffset === 0 && body.buffer.byteLength === body.byteLength) return body;
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(body));
  if (typeof body === 'string') bytes.write(body);
  else body.copy(bytes);
  return bytes;
}
