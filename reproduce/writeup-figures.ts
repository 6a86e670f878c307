import type { ReportTableResult } from '../contract/results.js';

// The write-ups' own figures, transcribed from ../shared/seeds/ into the same table shape as our
// report tables, so a reproduction shows them side by side. Their hardware is not ours: they are
// references for the shape (who wins, by roughly how much), not for absolute values.

export interface WriteupFigures {
  tables: ReportTableResult[];
  /** figures the write-up gives in words rather than in a table, and reading notes */
  notes: string[];
}

const late = (title: string, rows: Array<[number, string, number, number, number]>): ReportTableResult => ({
  title,
  unit: 's',
  header: ['count', 'server', 'wait.mean', 'processing.mean', 'total.mean'],
  rows: rows.map(([count, server, wait, proc, total]) => [String(count), server, wait, proc, total]),
});

const seed003 = (title: string, dim: string, rows: Array<[string, number, number, number, number, number]>): ReportTableResult => ({
  title,
  unit: 's',
  header: [dim, 'count', 'per-thread time', 'per-thread req/s', 'pre-thread time', 'pre-thread req/s'],
  // The report's times are in ms; ours in s.
  rows: rows.map(([d, count, perMs, perRps, preMs, preRps]) => [d, String(count), perMs / 1000, perRps, preMs / 1000, preRps]),
});

const sizes = [10, 50, 200, 500, 1000];
const block = (label: string, values: Array<[number, number, number, number]>): Array<[string, number, number, number, number, number]> =>
  values.map(([a, b, c, d], i) => [i === 0 ? label : '', sizes[i]!, a, b, c, d]);

const percentileHeader = ['server', 'total.p50', 'total.p66', 'total.p75', 'total.p80', 'total.p90', 'total.p95', 'total.p98', 'total.p99', 'total.max'];

export const WRITEUP_FIGURES: Readonly<Record<string, WriteupFigures>> = {
  'seed-000-late-requests': {
    tables: [
      late('Late fib(35) requests after 100 x fib(40): mean wait, processing and total (paper)', [
        [10, 'cluster (100)', 14.89, 0.74, 15.63],
        [10, 'proposal', 1.89, 3.69, 5.6],
        [20, 'cluster (100)', 15.53, 0.55, 16.09],
        [20, 'proposal', 1.89, 4.52, 6.42],
        [50, 'cluster (100)', 15.64, 0.89, 16.53],
        [50, 'proposal', 1.97, 6.34, 8.31],
      ]),
    ],
    notes: [
      "The paper's raw rows list three numbers per case without headings; we read them as its text does for 10 requests (cluster: wait 14.89, processing 0.74; proposal: wait 1.89, processing 3.69) and keep that reading for 20 and 50.",
    ],
  },
  'seed-000-image': {
    tables: [
      late('Late image requests after 100 image requests: mean wait, processing and total (paper)', [
        [10, 'cluster (100)', 20.04, 3.93, 23.97],
        [10, 'proposal', 6.88, 10.28, 17.16],
        [20, 'cluster (100)', 18.59, 6.16, 24.75],
        [20, 'proposal', 7.56, 11.83, 19.4],
        [50, 'cluster (100)', 13.33, 14.08, 27.42],
        [50, 'proposal', 9.47, 15.4, 24.87],
      ]),
    ],
    notes: [],
  },
  'seed-000-image-200': {
    tables: [],
    notes: [
      'The paper gives no table of figures here, only ratios: proposal(init) mean total less than 1/3 of cluster\'s, max less than 1/4.',
      'On cluster, 100 requests started within 1 s and the other 100 waited 68.9 s on average (uneven distribution, the paper says).',
      "Against its own estimate of a cluster without the uneven distribution: proposal(init) 15.8% lower mean and 7.0% lower max; proposal(continue, pre-scaled) 31.2% lower mean and 17.5% lower max.",
    ],
  },
  'seed-001-rates': {
    tables: [
      {
        title: 'Mean response time per request rate (thesis, 4 cores, 3 client machines)',
        unit: 'ms',
        header: ['rate', 'Go', 'webpipes', 'mpserver1', 'mpserver2 (static LB)', 'mpserver3 (dynamic LB)', 'Apache'],
        rows: [
          ['100', 0.42, 0.55, 0.45, 0.45, 0.55, 1.75],
          ['200', 0.4, 0.57, 0.53, 0.5, 0.62, 1.8],
          ['300', 0.5, 0.6, 0.5, 0.5, 0.62, 1.7],
          ['400', 0.5, 0.6, 0.5, 0.43, 0.7, 1.68],
          ['500', 0.45, 0.5, 0.43, 0.53, 0.72, 1.85],
          ['600', 0.45, 0.53, 0.47, 0.5, 0.85, 1.62],
          ['700', 0.47, 0.62, 0.43, 0.4, 1.02, 1.62],
          ['800', 0.42, 0.55, 0.47, 0.47, 1.2, 1.7],
        ],
      },
    ],
    notes: ['Our servers map onto the thesis\'s as: single = plain Go, offload-rr4 = mpserver2, autoscale-max4 = mpserver3, nginx = the installed web server (Apache there).'],
  },
  'seed-002-sequential': {
    tables: [
      {
        title: 'Rudy: time for 100 requests, per request, and requests per second (course report)',
        unit: 'ms',
        header: ['phase', 'durationMs', 'total.mean', 'throughput'],
        rows: [
          ['1 client, no delay', 30.502, 0.305, 3279],
          ['1 client, 40 ms delay', 4197.233, 41.972, 24],
          ['2 clients, 40 ms delay', 8013.262, null, null],
        ],
      },
    ],
    notes: [
      'Two clients at once: 8119.9, 8120.4 and 7799.5 ms against 4197.1, 4199.5 and 4197.8 ms for one client alone (three runs each, same machine): 1.91 times as long.',
    ],
  },
  'seed-003-threads': {
    tables: [
      seed003('Test 1: total time and requests/s per core count and request count (report, mean of 10)', 'cores', [
        ...block('1', [
          [3044, 2.9069, 4960, 2.0161],
          [3307, 15.1194, 7832, 6.3841],
          [5372, 37.2301, 8214, 24.3487],
          [5789, 86.3707, 19709, 25.3691],
          [8641, 115.7273, 19076, 52.4219],
        ]),
        ...block('2', [
          [3022, 3.309, 5295, 1.8889],
          [3362, 14.8721, 5555, 9.001],
          [4551, 43.9464, 6171, 29.6428],
          [6732, 74.2721, 13250, 37.7359],
          [9726, 102.81712, 20789, 48.1024],
        ]),
        ...block('4', [
          [3079, 3.2478, 5017, 1.9932],
          [3296, 15.1699, 6238, 8.0154],
          [6791, 29.4507, 7171, 27.8901],
          [12580, 39.7456, 7725, 64.7249],
          [18280, 54.7046, 18134, 55.145],
        ]),
      ]),
    ],
    notes: ['This machine has 2 cores: the report\'s 4-core rows have no counterpart here.'],
  },
  'seed-003-delays': {
    tables: [
      seed003('Test 2: total time and requests/s per delay range and request count (report, 4 cores)', 'delay', [
        ...block('1-3 s', [
          [3079, 3.2478, 5017, 1.9932],
          [3296, 15.1699, 6238, 8.0154],
          [6791, 29.4507, 7171, 27.8901],
          [12580, 39.7456, 7725, 64.7249],
          [18280, 54.7046, 18134, 55.145],
        ]),
        ...block('1-20 s', [
          [17058, 0.5862, 18701, 0.5347],
          [20410, 2.4498, 20848, 2.3983],
          [22029, 9.079, 21141, 9.4603],
          [27334, 19.2922, 22561, 22.1621],
          [41237, 24.2501, 44658, 22.3924],
        ]),
      ]),
    ],
    notes: [],
  },
  'seed-003-buckets': {
    tables: [
      seed003('Test 3: total time and requests/s per bucket count and request count (report, 4 cores)', 'buckets', [
        ...block('32', [
          [3034, 3.296, 4276, 2.3386],
          [3657, 13.6724, 4328, 11.5527],
          [5641, 35.4547, 6273, 31.8827],
          [7671, 65.1806, 8258, 60.5473],
          [12225, 81.7996, 19020, 52.5762],
        ]),
        ...block('128', [
          [3031, 3.2992, 4916, 2.0342],
          [3514, 14.2288, 4959, 10.0827],
          [5084, 39.3391, 6331, 31.5906],
          [9373, 53.3447, 8143, 61.4024],
          [11281, 88.6446, 20944, 47.7364],
        ]),
        ...block('512', [
          [3018, 3.1334, 5017, 1.9932],
          [4147, 12.0569, 6238, 8.0153],
          [6087, 29.1121, 7171, 27.8901],
          [16658, 30.0156, 7725, 64.7249],
          [15885, 62.9525, 20944, 47.7463],
        ]),
        ...block('2048', [
          [3033, 3.2971, 6380, 1.5673],
          [3192, 15.6641, 4864, 10.2796],
          [5329, 37.5305, 5400, 37.037],
          [10845, 46.1041, 8850, 56.4971],
          [19085, 52.3971, 17893, 55.8878],
        ]),
      ]),
    ],
    notes: [],
  },
  'seed-004-workers': {
    tables: [
      {
        title: 'Percentage of the requests served within a certain time (gist, ab -k -c 250 -n 8000, 8 cores)',
        unit: 'ms',
        header: percentileHeader,
        rows: [
          ['in-process (red)', 1220, 1318, 1379, 1435, 1574, 1738, 1873, 1959, 4299],
          ['http-workers, fib in main (green)', 322, 455, 609, 1297, 1549, 1679, 1812, 1905, 2226],
          ['one fib worker (blue)', 748, 786, 811, 840, 898, 937, 976, 995, 1070],
          ['http-workers + one fib worker (purple)', 402, 445, 476, 495, 546, 586, 628, 647, 686],
          ['8 fib workers, round-robin (brown)', 167, 245, 315, 373, 566, 727, 901, 961, 1150],
          ['http-workers + 8 fib workers (cyan)', 92, 148, 189, 217, 288, 349, 427, 478, 621],
        ],
      },
      {
        title: 'Requests per second, time taken and mean time per request (gist)',
        unit: 'ms',
        header: ['server', 'throughput', 'durationMs', 'total.mean'],
        rows: [
          ['in-process (red)', 217.06, 36856, 1151.753],
          ['http-workers, fib in main (green)', 318.09, 25150, 785.951],
          ['one fib worker (blue)', 329.08, 24310, 759.7],
          ['http-workers + one fib worker (purple)', 308.08, 25967, 811.484],
          ['8 fib workers, round-robin (brown)', 1018.79, 7852, 245.389],
          ['http-workers + 8 fib workers (cyan)', 980.1, 8162, 255.077],
        ],
      },
    ],
    notes: [
      "The gist's ab outputs carry no series names; we match them by path and by its text (randomfib = red and green, randomfib2 = blue and purple, randomfib3 = brown and cyan; 'cyan 50% within 92 ms vs brown 167 ms'). It prints the cyan run twice.",
    ],
  },
};

export function writeupFigures(scenarioName: string): WriteupFigures {
  return WRITEUP_FIGURES[scenarioName] ?? { tables: [], notes: [] };
}
