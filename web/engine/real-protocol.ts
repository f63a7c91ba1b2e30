// Messages between the real-machine panel and its worker (real.worker.ts).
import type { RealOptions, RealReport, RealSecond } from './real-run';

export type RealRequest = { kind: 'start'; options: RealOptions } | { kind: 'stop' };

export type RealReply =
  | { kind: 'ready'; prefetch: boolean; maxThreads: number }
  | { kind: 'second'; sample: RealSecond; spinPctPerWorker: number[] }
  | { kind: 'done'; report: RealReport }
  | { kind: 'error'; error: string };
