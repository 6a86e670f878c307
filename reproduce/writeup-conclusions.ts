// Each write-up's own conclusion for a reproduced scenario, in one line, transcribed from
// ../shared/seeds/*.txt (quoted where the write-up says it in one sentence, lightly trimmed where it
// takes several): docs/reproductions.md puts it beside Loadscope's diagnosis of the same run.

export const WRITEUP_CONCLUSIONS: Readonly<Record<string, string>> = {
  'seed-000-late-requests':
    'late requests wait in the cluster because all its child processes are busy with the early ones ("Requests come in the second step have to wait"); the auto-scaling pool generates new processes for them, so their wait is almost only the time to start a process',
  'seed-000-image':
    "the auto-scaling pool still cuts the late image requests' wait significantly, though less of their total than for fib, since each new process takes longer to process I/O-bound work",
  'seed-000-image-200':
    'on cluster 100 requests were handled at once and the other 100 waited 68.9 s on average: the cluster\'s distribution queues tasks on a few child processes ("Waiting queue appeared")',
  'seed-001-rates':
    'plain Go is the fastest, the mpserver toolkit close behind, webpipes slightly worse and Apache the worst, probably from its authorization overhead',
  'seed-002-sequential':
    '"single erlang process can\'t process requests concurrently, therefore every request has to wait for the server to finish parsing previous request": two clients take twice as long',
  'seed-003-threads':
    '"As the number of cores increases, the performance increases"; the pre-created pool is less efficient than a thread per request when cores or requests are few',
  'seed-003-delays':
    '"When the delay time is large, the pre-thread will have a better performance": a thread per request spends its time creating threads',
  'seed-003-buckets':
    'many requests per bucket contend for its lock, which "leads to the serialization of the whole process"',
  'seed-004-workers':
    '"I don\'t think the size can be explained by just the lack of CPU power - it is also a lack of parallelism": the in-process server cannot take a new request until the calculation of the last one is done',
};
