// The readers' types, for their test (bench/stream-peer-output.test.ts).
export interface GeneratorFigures {
  /** calls (gRPC) or echoed messages (WebSocket) completed */
  done: number;
  p99Ms: number;
  errors: number;
}
export function ghzFigures(jsonText: string): GeneratorFigures;
export function k6EchoFigures(summaryText: string): GeneratorFigures;
export function loadscopeStreamFigures(runText: string, protocol: 'grpc' | 'ws'): GeneratorFigures;
