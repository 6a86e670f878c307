// The readers' types, for their test (bench/stream-peer-output.test.ts).
export interface GeneratorFigures {
  /** calls (gRPC) or echoed messages (WebSocket) completed */
  done: number;
  p99Ms: number;
  errors: number;
}
export function ghzFigures(jsonText: string): GeneratorFigures;
export function k6EchoFigures(summaryText: string): GeneratorFigures;
/** loadscope's figures carry its phase's lag p99 (ms; null when none was measured). */
export function loadscopeStreamFigures(runText: string, protocol: 'grpc' | 'ws'): GeneratorFigures & { lagP99Ms: number | null };
