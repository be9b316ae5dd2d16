import { readFileSync } from 'node:fs';

function statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(
      readFileSync(`/proc/${pid}/status`, 'utf8'),
    );
    return match ? Number(match[1]) : NaN;
  } catch {
    return NaN;
  }
}

/** A process's resident memory now, in MB. */
export const rssMb = (pid: number) => statusKb(pid, 'VmRSS') / 1024;

/** Samples a process's resident memory every 50 ms; `stop` returns the peak in MB (sampled and kernel's VmHWM). */
export function sampleMemory(pid: number) {
  let peakKb = statusKb(pid, 'VmRSS');
  const timer = setInterval(() => {
    const kb = statusKb(pid, 'VmRSS');
    if (kb > peakKb) peakKb = kb;
  }, 50);
  return {
    stop(): { peakRssMb: number; hwmMb: number } {
      clearInterval(timer);
      const kb = statusKb(pid, 'VmRSS');
      if (kb > peakKb) peakKb = kb;
      return { peakRssMb: peakKb / 1024, hwmMb: statusKb(pid, 'VmHWM') / 1024 };
    },
  };
}
