// What a process keeps in memory: its heap and buffers once everything unreachable is collected.
//
// One full collection frees the ArrayBuffers that died, but V8 sweeps them on a thread of its own and takes their bytes
// off its count of external memory (`external` in process.memoryUsage()) only when that sweep is finalized, at the next
// collection. Read after one, `external` still counts every buffer the collection freed, as many as died since the last
// one: a figure that moves with the collector's timing rather than with what is kept. The second collection finalizes
// the first one's sweep.

/** process.memoryUsage() once everything unreachable is collected and no longer counted; `collect` is `gc` of --expose-gc. */
export function memoryAfterCollection(collect: () => void): NodeJS.MemoryUsage {
  collect();
  collect();
  return process.memoryUsage();
}
