// Noticing commits to a WAL-mode SQLite database, by anyone, from its WAL-index header: the first
// 48 bytes of `<database>-shm` (https://www.sqlite.org/walformat.html, "The WAL-Index Header").
// Every commit rewrites that header (its change counter, frame count, salts and checksum), from
// any connection in any process, before the commit returns. Reading it is one pread, about a
// third of the cost of `PRAGMA data_version`, and the read cache asks on every replayed turn.
import { closeSync, openSync, readSync } from 'node:fs';
import { endianness } from 'node:os';

const HEADER_BYTES = 48;
/** `iVersion` of the WAL-index format this reading knows (SQLite 3.7.0 to date). */
export const WAL_INDEX_VERSION = 3007000;

export interface WalIndexWatch {
  /** Whether the header changed since the last call (or since opening). */
  changed(): boolean;
  close(): void;
}

/**
 * Watches the WAL index of the database at `path`; undefined when there is none, or when its
 * header is not of the known version or not initialized, so that the caller falls back to
 * asking SQLite. Open it after a connection to the database has read in WAL mode.
 */
export function watchWalIndex(path: string): WalIndexWatch | undefined {
  let fd: number;
  try {
    fd = openSync(`${path}-shm`, 'r');
  } catch {
    return undefined;
  }
  const last = Buffer.alloc(HEADER_BYTES);
  const read = Buffer.alloc(HEADER_BYTES);
  const readHeader = (into: Buffer): boolean => readSync(fd, into, 0, HEADER_BYTES, 0) === HEADER_BYTES;
  // The header is in the machine's byte order; `isInit` is byte 12.
  const known = readHeader(last) && (endianness() === 'LE' ? last.readUInt32LE(0) : last.readUInt32BE(0)) === WAL_INDEX_VERSION && last[12] === 1;
  if (!known) {
    closeSync(fd);
    return undefined;
  }
  return {
    changed() {
      // A header caught mid-write differs from the last one too: at worst one extra "changed".
      if (!readHeader(read) || read.equals(last)) return false;
      read.copy(last);
      return true;
    },
    close() {
      closeSync(fd);
    },
  };
}
