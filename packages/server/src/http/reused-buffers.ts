// Memory for response bodies that are written once and read by nothing afterwards (a transactions page joined from
// its rows' JSON). Allocating tens of kilobytes outside the heap for every response, and the collections that memory
// brings on, cost a fresh page about 8 % of its CPU time: memory a written response no longer holds is taken again.
import { Buffer } from 'node:buffer';

export interface ReusedBuffersOptions {
  /** Memory kept free at most, as so many blocks. */
  maxKept: number;
  /** A block larger than this is not kept. */
  maxBlockBytes: number;
}

/** The smallest block: a page of a few rows takes one that a page of a hundred can take again. */
const MIN_BLOCK_BYTES = 16 * 1024;

/** Blocks come in powers of two, so that a block freed by one page fits the next of about its size. */
function blockBytesFor(length: number): number {
  return 2 ** Math.ceil(Math.log2(Math.max(length, MIN_BLOCK_BYTES)));
}

export class ReusedBuffers {
  private readonly free: ArrayBuffer[] = [];
  private readonly options: ReusedBuffersOptions;

  constructor(options: ReusedBuffersOptions) {
    this.options = options;
  }

  /** Memory blocks kept free now. */
  get kept(): number {
    return this.free.length;
  }

  /** `length` bytes (their content undefined) over memory that nothing taken and not yet given back holds. */
  take(length: number): Buffer<ArrayBuffer> {
    const { free } = this;
    for (let index = free.length - 1; index >= 0; index -= 1) {
      const block = free[index]!;
      if (block.byteLength < length) continue;
      free.splice(index, 1);
      return Buffer.from(block, 0, length);
    }
    return Buffer.allocUnsafeSlow(blockBytesFor(length)).subarray(0, length);
  }

  /**
   * Gives back bytes from `take` once nothing will read them again: for a response, once node:http reports it
   * finished (handed to the operating system), never before. Bytes given back are not to be used again.
   */
  give(bytes: Buffer<ArrayBuffer>): void {
    const block = bytes.buffer;
    const { free, options } = this;
    if (block.byteLength > options.maxBlockBytes || free.length >= options.maxKept || free.includes(block)) return;
    free.push(block);
  }
}
