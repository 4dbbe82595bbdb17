// Describes the machine a benchmark ran on, for the report's "machine and date" line.
import { cpus, platform, release, totalmem } from 'node:os';
import { getHeapStatistics } from 'node:v8';

/** CPU, cores, memory, OS and Node version of this process's machine. */
export interface MachineInfo {
  readonly cpu: string;
  readonly cores: number;
  readonly total_mem_bytes: number;
  readonly heap_limit_bytes: number;
  readonly os: string;
  readonly node: string;
}

/** Reads the machine description from `os` and `v8`. */
export function describeMachine(): MachineInfo {
  const list = cpus();
  return {
    cpu: list[0]?.model.trim() ?? 'unknown',
    cores: list.length,
    total_mem_bytes: totalmem(),
    heap_limit_bytes: getHeapStatistics().heap_size_limit,
    os: `${platform()} ${release()}`,
    node: process.version,
  };
}

/** One line: `AMD EPYC 7B13, 2 cores, 23.5 GiB RAM, linux 6.8, Node v20.20.2`. */
export function formatMachine(m: MachineInfo): string {
  const gib = (m.total_mem_bytes / 2 ** 30).toFixed(1);
  return `${m.cpu}, ${m.cores} cores, ${gib} GiB RAM, ${m.os}, Node ${m.node}`;
}
