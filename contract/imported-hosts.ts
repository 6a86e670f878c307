// What `import-har --all-hosts` kept of requests captured for other hosts: they are sent to the
// scenario's one server, so the import says so in the scenario's description, in this one wording,
// and the diagnosis reads it back from a stored run (engine/diagnosis/other-hosts.ts). One owner of
// the sentence, so the rule cannot drift from what the import writes.

/** At most this many other hosts are named (the count says how many there were). */
const NAMED_HOSTS = 5;

/** The import's note: how many other hosts, the first few by name, and where their requests go instead. */
export function otherHostsKeptNote(others: readonly string[], main: string): string {
  const named = others.slice(0, NAMED_HOSTS).join(', ') + (others.length > NAMED_HOSTS ? ', ...' : '');
  return `requests to ${others.length} other host(s) (${named}) are kept but go to ${main}, the scenario's one server`;
}

const KEPT = /requests to (\d+) other host\(s\) \(([^()]*)\) are kept but go to (\S+), the scenario's one server/i;

export interface OtherHostsKept {
  count: number;
  /** the hosts named (at most NAMED_HOSTS) */
  hosts: string[];
  /** the host they go to instead */
  main: string;
}

/** The note read back from a description; null when it holds none. */
export function otherHostsKeptIn(description: string): OtherHostsKept | null {
  const m = KEPT.exec(description);
  if (m === null) return null;
  return { count: Number(m[1]), hosts: m[2]!.split(', ').filter((h) => h !== '' && h !== '...'), main: m[3]! };
}
