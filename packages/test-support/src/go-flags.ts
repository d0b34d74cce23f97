// GOFLAGS is a space-separated list of flags that every `go` command of the run takes.

/** `flags` (GOFLAGS as given, maybe unset) with `flag` added once: a flag already in the list is not added again. */
export function withGoFlag(flags: string | undefined, flag: string): string {
  const listed = (flags ?? '').split(/\s+/).filter(Boolean);
  return listed.includes(flag) ? listed.join(' ') : [...listed, flag].join(' ');
}
